#include "chartview.h"
#include "format.h"
#include "plots.h"

#include <algorithm>

namespace kscope {

void drawHistogram(ChartView& view, const HistogramData& data)
{
    view.clearChart(data.title, true);
    view.xAxis->setLabel(data.footnote.isEmpty() ? data.keyLabel : data.keyLabel + QStringLiteral(" — ") + data.footnote);
    view.yAxis->setLabel(data.valueLabel);
    if (!data.message.isEmpty() || data.edges.size() < 2) {
        view.setLegendVisible(false);
        view.xAxis->setRange(0, 1);
        view.yAxis->setRange(0, 1);
        view.showMessage(data.message);
        view.finishChart();
        return;
    }
    if (data.logKeys) {
        view.xAxis->setScaleType(QCPAxis::stLogarithmic);
        view.xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    }
    double top = 0.0;
    for (const HistogramSeries& series : data.series) {
        // A step line over the shared bin edges; translucent fills keep overlapping causes visible.
        auto* graph = view.addGraph(view.xAxis, view.yAxis);
        graph->setName(series.name);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setPen(QPen(series.color.darker(115), 1.5));
        QColor fill = series.color;
        fill.setAlpha(70);
        graph->setBrush(fill);
        QVector<double> keys = data.edges;
        QVector<double> values = series.counts;
        values.resize(keys.size());
        values.back() = series.counts.isEmpty() ? 0.0 : series.counts.back();
        graph->setData(keys, values, true);
        QStringList tooltips;
        for (int b = 0; b < keys.size(); ++b) {
            const int bin = std::min(b, static_cast<int>(series.counts.size()) - 1);
            tooltips.push_back(QObject::tr("%1: %2 gaps of %3 – %4 µs")
                                   .arg(series.name)
                                   .arg(series.counts.value(bin))
                                   .arg(data.edges.value(bin), 0, 'g', 4)
                                   .arg(data.edges.value(bin + 1), 0, 'g', 4));
        }
        view.setPlottableTooltips(graph, tooltips);
        for (double c : series.counts)
            top = std::max(top, c);
    }
    view.xAxis->setRange(data.edges.front(), data.edges.back());
    view.yAxis->setRange(0, top > 0 ? top * 1.08 : 1.0);
    view.setLegendVisible(true);
    view.finishChart();
}

} // namespace kscope

#include "plots/chartview.h"
#include "common/format.h"
#include "plots/plots.h"

#include <algorithm>

namespace kscope {

void drawHistogram(ChartView& view, const HistogramData& data)
{
    view.clearChart(data.title, true);
    view.xAxis->setLabel(data.keyLabel);
    view.yAxis->setLabel(data.valueLabel);
    view.setFootnote(data.footnote);
    // Counts are whole: no 0.5 ticks on a short axis.
    auto counts = QSharedPointer<QCPAxisTickerFixed>::create();
    counts->setTickStep(1.0);
    counts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    view.yAxis->setTicker(counts);
    if (!data.message.isEmpty() || data.edges.size() < 2) {
        view.finishEmpty(data.message);
        return;
    }
    if (data.logKeys) {
        view.xAxis->setScaleType(QCPAxis::stLogarithmic);
        view.xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    }
    // Stacked step lines: each cause is drawn on top of the previous ones (its band filled down to
    // them), so the outline is the total and no cause hides behind another.
    double top = 0.0;
    QVector<double> below(data.edges.size(), 0.0);
    QCPGraph* previous = nullptr;
    for (const HistogramSeries& series : data.series) {
        auto* graph = view.addGraph(view.xAxis, view.yAxis);
        graph->setName(series.name);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setPen(QPen(series.color.darker(115), 1.2));
        QColor fill = series.color;
        fill.setAlpha(170);
        graph->setBrush(fill);
        if (previous)
            graph->setChannelFillGraph(previous);
        const QVector<double>& keys = data.edges;
        QVector<double> values(keys.size());
        for (int b = 0; b < keys.size(); ++b) {
            // The step after the last edge repeats the last bin so it is drawn full width.
            const int bin = std::min(b, static_cast<int>(series.counts.size()) - 1);
            values[b] = below[b] + (bin >= 0 ? series.counts.value(bin) : 0.0);
        }
        graph->setData(keys, values, true);
        QStringList tooltips;
        for (int b = 0; b < keys.size(); ++b) {
            const int bin = std::min(b, static_cast<int>(series.counts.size()) - 1);
            tooltips.push_back(QObject::tr("%1%2 %3 of %4 – %5 µs")
                                   .arg(series.name.isEmpty() ? QString() : series.name + QStringLiteral(": "))
                                   .arg(series.counts.value(bin))
                                   .arg(data.countNoun)
                                   .arg(data.edges.value(bin), 0, 'g', 4)
                                   .arg(data.edges.value(bin + 1), 0, 'g', 4));
        }
        view.setPlottableTooltips(graph, tooltips);
        below = values;
        previous = graph;
    }
    for (double v : below)
        top = std::max(top, v);
    view.xAxis->setRange(data.edges.front(), data.edges.back());
    view.yAxis->setRange(0, top > 0 ? top * 1.08 : 1.0);
    // As many key ticks as fit ("2000040000" is four labels run together on a narrow chart).
    if (!data.logKeys)
        view.xAxis->ticker()->setTickCount(std::clamp(view.width() / 70, 3, 6));
    // One series needs no legend: its title says what it is.
    view.setLegendVisible(data.series.size() > 1);
    view.finishChart();
}

} // namespace kscope

#include "plots/chartview.h"
#include "plots/plots.h"

#include <algorithm>

namespace kscope {

void drawSeries(ChartView& view, const SeriesChartData& data)
{
    view.clearChart(data.title, true);
    view.xAxis->setLabel(data.keyLabel);
    view.yAxis->setLabel(data.valueLabel);
    view.setFootnote(data.footnote);
    const bool empty = std::all_of(data.series.begin(), data.series.end(), [](const LineSeries& s) { return s.keys.isEmpty(); });
    if (!data.message.isEmpty() || empty) {
        view.finishEmpty(data.message);
        return;
    }
    double left = 0, right = 0, top = 0;
    bool first = true;
    for (const LineSeries& series : data.series) {
        auto* graph = view.addGraph(view.xAxis, view.yAxis);
        graph->setName(series.name);
        graph->setLineStyle(data.steps ? QCPGraph::lsStepLeft : QCPGraph::lsLine);
        graph->setPen(QPen(series.color, 1.3));
        graph->setData(series.keys, series.values, true);
        if (series.keys.isEmpty())
            continue;
        left = first ? series.keys.front() : std::min(left, series.keys.front());
        right = first ? series.keys.back() : std::max(right, series.keys.back());
        first = false;
        for (double v : series.values)
            top = std::max(top, v);
    }
    for (const KeyBand& band : data.bands) {  // whole bands: the steps around the values
        left = std::min(left, band.from);
        right = std::max(right, band.to);
    }
    view.xAxis->setRange(left, right > left ? right : left + 1);
    view.yAxis->setRange(0, top > 0 ? top * 1.15 : 1.0);
    for (int i = 0; i < data.bands.size(); ++i) {
        const KeyBand& band = data.bands[i];
        if (i % 2 == 0) {  // every other band shaded: neighbours stay apart
            auto* rect = new QCPItemRect(&view);
            rect->setLayer(QStringLiteral("background"));
            rect->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
            rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
            rect->bottomRight->setTypeX(QCPItemPosition::ptPlotCoords);
            rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
            rect->topLeft->setCoords(band.from, 0);
            rect->bottomRight->setCoords(band.to, 1);
            rect->setPen(Qt::NoPen);
            rect->setBrush(QColor(0, 0, 0, 14));
        }
        auto* text = new QCPItemText(&view);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords((band.from + band.to) / 2, 0.02);
        text->setPositionAlignment(Qt::AlignTop | Qt::AlignHCenter);
        text->setText(band.label);
        text->setColor(QColor(90, 90, 90));
        text->setClipToAxisRect(true);
    }
    for (const PointMarker& marker : data.markers) {
        auto* dot = new QCPItemEllipse(&view);
        const double dx = (view.xAxis->range().size()) * 0.004;
        const double dy = (view.yAxis->range().size()) * 0.012;
        dot->topLeft->setCoords(marker.key - dx, marker.value + dy);
        dot->bottomRight->setCoords(marker.key + dx, marker.value - dy);
        dot->setPen(QPen(Qt::black, 1.2));
        dot->setBrush(Qt::white);
        auto* text = new QCPItemText(&view);
        text->position->setCoords(marker.key, marker.value);
        text->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        text->setPadding(QMargins(0, 0, 0, 6));
        text->setText(marker.label);
        text->setClipToAxisRect(false);
    }
    view.setLegendVisible(data.series.size() > 1);
    view.finishChart();
}

} // namespace kscope

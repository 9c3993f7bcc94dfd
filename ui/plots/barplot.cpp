#include "plots/chartview.h"
#include "plots/plots.h"

#include <algorithm>

namespace kscope {

namespace {

void setupKeyAxis(ChartView& view, QCPAxis* axis, const BarChartData& data)
{
    axis->setLabel(data.keyLabel);
    if (data.keyLabels.isEmpty()) {
        // Ranks: every rank labelled while the labels fit, thinned to round multiples beyond.
        view.setIntegerKeyTicks(data.keys.isEmpty() ? 1 : int(data.keys.back()) + 1, data.rankNames);
    } else {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (int i = 0; i < data.keys.size(); ++i)
            ticker->addTick(data.keys[i], data.keyLabels.value(i));
        axis->setTicker(ticker);
    }
    axis->grid()->setVisible(false);
    const double first = data.keys.isEmpty() ? 0.0 : data.keys.front();
    const double last = data.keys.isEmpty() ? 1.0 : data.keys.back();
    axis->setRange(first - 0.6, last + 0.6);
}

} // namespace

void drawBars(ChartView& view, const BarChartData& data)
{
    view.clearChart(data.title, !data.horizontal);
    QCPAxis* keyAxis = data.horizontal ? view.yAxis : view.xAxis;
    QCPAxis* valueAxis = data.horizontal ? view.xAxis : view.yAxis;
    setupKeyAxis(view, keyAxis, data);
    if (data.horizontal && !data.keyLabels.isEmpty())
        view.fitKeyRows(int(data.keys.size()));
    view.setFootnote(data.footnote);
    valueAxis->setLabel(data.valueLabel);
    valueAxis->grid()->setVisible(true);
    if (!data.message.isEmpty() || data.keys.isEmpty()) {
        const QCPRange keys = keyAxis->range(), values(0, data.percent ? 100 : 1);
        view.finishEmpty(data.message, data.horizontal ? values : keys, data.horizontal ? keys : values);
        return;
    }
    for (int i = 0; i < data.keys.size(); ++i)
        view.setKeyId(data.keys[i], data.ids.value(i, -1));

    // Thin white outlines separate stacked segments; with many bars they would only grey them.
    // With hundreds of ranks, bars become a pixel or two: no gaps, no outline and no
    // antialiasing, or blending washes the category colours out.
    const bool dense = data.keys.size() > 64;
    const QPen outline = dense ? QPen(Qt::NoPen) : QPen(Qt::white, 0.8);
    const double width = data.keys.size() > 200 ? 1.0 : 0.72;
    const auto newBars = [&](const QColor& colour, double barWidth) {
        auto* bars = new QCPBars(keyAxis, valueAxis);
        bars->setWidth(barWidth);
        bars->setPen(outline);
        bars->setBrush(colour);
        return bars;
    };
    if (data.colorPerKey) {
        // One plottable per key so each can carry its category colour.
        const BarSeries& series = data.series.front();
        for (int i = 0; i < data.keys.size(); ++i) {
            auto* bars = newBars(data.keyColors.value(i), width);
            bars->removeFromLegend();
            bars->addData(data.keys[i], series.values.value(i));
            view.setPlottableTooltips(bars, {data.tooltips.value(i)});
        }
        view.setLegendVisible(false);
    } else if (data.grouped) {
        // Side by side (control, test, difference): one group per key, bars may be negative.
        auto* group = new QCPBarsGroup(&view);
        group->setSpacing(0);
        const double barWidth = width / std::max<qsizetype>(1, data.series.size());
        for (const BarSeries& series : data.series) {
            auto* bars = newBars(series.color, barWidth);
            bars->setName(series.name);
            bars->setData(data.keys, series.values, true);
            bars->setBarsGroup(group);
            view.setPlottableTooltips(bars, data.tooltips);
        }
        view.setLegendVisible(true);
    } else {
        QCPBars* below = nullptr;
        for (const BarSeries& series : data.series) {
            auto* bars = newBars(series.color, width);
            bars->setName(series.name);
            bars->setStackingGap(0);
            bars->setAntialiased(!dense);
            bars->setData(data.keys, series.values, true);
            if (below)
                bars->moveAbove(below);
            below = bars;
            view.setPlottableTooltips(bars, data.tooltips);
            if (series.id >= 0)
                view.setPlottableId(bars, series.id);
        }
        view.setLegendVisible(data.series.size() > 1);
    }

    double top = 0.0;
    bool found = false;
    const QCPRange range = view.plottable(view.plottableCount() - 1)->getValueRange(found, QCP::sdBoth);
    if (!data.colorPerKey && !data.grouped && found)
        top = range.upper;  // the topmost stacked plottable spans the whole stack
    for (const BarSeries& series : data.series)
        for (double v : series.values)
            top = std::max(top, v);
    if (data.percent && data.series.size() > 1 && !data.grouped)
        top = 100.0;
    double bottom = 0.0;
    if (data.grouped)
        for (const BarSeries& series : data.series)
            for (double v : series.values)
                bottom = std::min(bottom, v);
    if (data.grouped)
        valueAxis->setRange(bottom * 1.08, top > 0 ? top * 1.08 : 1.0);
    else
        valueAxis->setRange(0, top > 0 ? top * (data.percent && data.series.size() > 1 ? 1.0 : 1.08) : 1.0);
    view.finishChart();
}

} // namespace kscope

#include "plots/chartview.h"
#include "plots/plots.h"

#include <algorithm>
#include <cmath>

namespace kscope {

void drawHeatMap(ChartView& view, const HeatMapData& data)
{
    view.clearChart(data.title, true);
    view.setLegendVisible(false);
    view.xAxis->setLabel(data.xLabel);
    view.yAxis->setLabel(data.yLabel);
    view.setFootnote(data.footnote);
    const int nx = int(data.xKeys.size()), ny = int(data.yKeys.size());
    if (!data.message.isEmpty() || nx == 0 || ny == 0) {
        view.finishEmpty(data.message);
        return;
    }
    // Cells sit on their index: step i at x = i, rank row j at y = j, labelled with the numbers.
    // QCustomPlot spans a map's data range from the first cell's centre to the last's; one cell
    // has no second centre, so its range is the cell itself.
    const auto cellRange = [](int n) { return n > 1 ? QCPRange(0, n - 1) : QCPRange(-0.5, 0.5); };
    auto* map = new QCPColorMap(view.xAxis, view.yAxis);
    map->data()->setSize(nx, ny);
    map->data()->setRange(cellRange(nx), cellRange(ny));
    double low = INFINITY, high = -INFINITY;
    QStringList tooltips = data.tooltips;
    const bool ownTooltips = tooltips.size() == nx * ny;
    if (!ownTooltips)
        tooltips = QStringList(nx * ny, QString());
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const double v = data.values.value(y * nx + x, NAN);
            map->data()->setCell(x, y, v);
            if (std::isfinite(v)) {
                low = std::min(low, v);
                high = std::max(high, v);
            }
            if (!ownTooltips)
                tooltips[y * nx + x] = std::isfinite(v)
                    ? QStringLiteral("%1 %2, %3 %4: %5 %6")
                          .arg(data.yLabel, data.yLabels.value(y, QString::number(data.yKeys[y])), data.xLabel)
                          .arg(data.xKeys[x])
                          .arg(v, 0, 'g', 6)
                          .arg(data.valueLabel)
                    : QObject::tr("no value");
        }
    view.setPlottableTooltips(map, tooltips);
    // Both ends of the colour scale stand out from the white background: a sequential map from
    // dark blue to yellow (viridis) for magnitudes, blue to red through grey for deviations.
    QCPColorGradient gradient;
    QCPRange range;
    if (data.scale == HeatScale::Diverging) {
        gradient.setColorStopAt(0.0, QColor(0x21, 0x66, 0xac));
        gradient.setColorStopAt(0.5, QColor(0xc8, 0xc8, 0xc8));
        gradient.setColorStopAt(1.0, QColor(0xb2, 0x18, 0x2b));
        const double reach = std::max({std::isfinite(low) ? std::abs(low) : 0.0,
                                       std::isfinite(high) ? std::abs(high) : 0.0, data.minimumSpan, 1e-9});
        range = QCPRange(-reach, reach);
    } else {
        gradient.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
        gradient.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
        gradient.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8c));
        gradient.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
        gradient.setColorStopAt(1.0, QColor(0xe3, 0xc8, 0x00));  // a yellow dark enough for white paper
        const double top = std::isfinite(high) && high > 0 ? high : 1.0;
        range = QCPRange(std::min(0.0, std::isfinite(low) ? low : 0.0), top);
    }
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    map->setGradient(gradient);
    map->setInterpolate(false);
    QCPColorScale* scale = view.showColorScale(data.valueLabel);
    map->setColorScale(scale);
    scale->setGradient(gradient);
    map->setDataRange(range);
    scale->setDataRange(range);
    auto xTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int x = 0; x < nx; ++x)
        xTicks->addTick(x, QString::number(data.xKeys[x]));
    view.xAxis->setTicker(xTicks);
    auto yTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int y = 0; y < ny; ++y)
        yTicks->addTick(y, data.yLabels.value(y, QString::number(data.yKeys[y])));
    view.yAxis->setTicker(yTicks);
    view.xAxis->setRange(-0.5, nx - 0.5);
    view.yAxis->setRange(-0.5, ny - 0.5);
    view.xAxis->grid()->setVisible(false);
    view.yAxis->grid()->setVisible(false);
    view.finishChart();
}

} // namespace kscope

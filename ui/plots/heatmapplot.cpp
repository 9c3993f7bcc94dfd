#include "plots/chartview.h"
#include "plots/plots.h"

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
    auto* map = new QCPColorMap(view.xAxis, view.yAxis);
    map->data()->setSize(nx, ny);
    map->data()->setRange(QCPRange(0, std::max(1, nx - 1)), QCPRange(0, std::max(1, ny - 1)));
    double low = INFINITY, high = -INFINITY;
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const double v = data.values.value(y * nx + x, NAN);
            map->data()->setCell(x, y, v);
            if (std::isfinite(v)) {
                low = std::min(low, v);
                high = std::max(high, v);
            }
        }
    map->setGradient(QCPColorGradient(QCPColorGradient::gpThermal));
    map->setInterpolate(false);
    map->setDataRange(QCPRange(std::isfinite(low) ? low : 0, std::isfinite(high) && high > low ? high : low + 1));
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

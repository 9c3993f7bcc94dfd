#include "plots/chartview.h"
#include "plots/palette.h"
#include "plots/plots.h"

#include <algorithm>

namespace kscope {

void drawBoxes(ChartView& view, const BoxChartData& data)
{
    view.clearChart(data.title, true);
    view.setLegendVisible(false);
    view.xAxis->setLabel(data.keyLabel);
    view.yAxis->setLabel(data.valueLabel);
    view.setIntegerKeyTicks(data.boxes.isEmpty() ? 1 : int(data.boxes.back().key) + 1, data.rankNames);
    view.setFootnote(data.footnote);
    view.xAxis->grid()->setVisible(false);
    if (!data.message.isEmpty() || data.boxes.isEmpty()) {
        view.finishEmpty(data.message, {-0.6, 0.6});
        return;
    }
    auto* boxes = new QCPStatisticalBox(view.xAxis, view.yAxis);
    boxes->removeFromLegend();
    boxes->setWidth(0.6);
    boxes->setWhiskerWidth(0.3);
    boxes->setBrush(palette::boxFill());
    boxes->setPen(QPen(palette::idleTime().darker(140), 1.2));
    boxes->setMedianPen(QPen(QColor(20, 20, 30), 2.0));
    boxes->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(200, 60, 40), 4));
    QStringList tooltips;
    double low = data.boxes.front().whiskerLow, high = data.boxes.front().whiskerHigh;
    for (const BoxItem& box : data.boxes) {
        boxes->addData(box.key, box.whiskerLow, box.q1, box.median, box.q3, box.whiskerHigh, box.outliers);
        tooltips.push_back(box.tooltip);
        view.setKeyId(box.key, box.id);
        low = std::min(low, box.whiskerLow);
        high = std::max(high, box.whiskerHigh);
        for (double o : box.outliers) {
            low = std::min(low, o);
            high = std::max(high, o);
        }
    }
    view.setPlottableTooltips(boxes, tooltips);
    view.xAxis->setRange(data.boxes.front().key - 0.6, data.boxes.back().key + 0.6);
    const double pad = std::max((high - low) * 0.06, 0.001);
    view.yAxis->setRange(std::max(0.0, low - pad), high + pad);
    view.finishChart();
}

} // namespace kscope

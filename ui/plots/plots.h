#pragma once

#include "plots/plotdata.h"

namespace kscope {

class ChartView;

// Map plot data onto QCustomPlot items; one file per chart type (barplot.cpp, boxplot.cpp,
// histogramplot.cpp). They draw what they are given and compute nothing but axis ranges.
void drawBars(ChartView& view, const BarChartData& data);
void drawBoxes(ChartView& view, const BoxChartData& data);
void drawHistogram(ChartView& view, const HistogramData& data);
void drawSeries(ChartView& view, const SeriesChartData& data);
void drawHeatMap(ChartView& view, const HeatMapData& data);

} // namespace kscope

#pragma once

// What a chart draws, in display units, built by the plot adapters from analysis results. The
// drawing code only maps these onto QCustomPlot items; it never sums, bins or takes quantiles.

#include "model/ids.h"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

namespace kscope {

struct Run;

// Per-rank charts key and identify each rank trace by its RankIndex (two files may claim one rank
// number, and each gets its own bar, box or row), and name it with Run::rankName in the ticks.
inline int rankChartId(RankIndex rank) { return static_cast<int>(rank.value); }
inline QList<int> rankChartIds(const QList<RankIndex>& ranks)
{
    QList<int> ids;
    for (RankIndex rank : ranks)
        ids.push_back(rankChartId(rank));
    return ids;
}
// Run::rankName of every rank trace, by RankIndex: the tick labels of per-rank charts.
QStringList rankNames(const Run& run);

struct BarSeries {
    QString name;
    QColor color;
    QVector<double> values;  // one per key
    int id = -1;             // >= 0: what a click on any of its bars selects, instead of the key's id
};

// Stacked bars (one series) or stacked segments (several series) at integer keys.
struct BarChartData {
    QString title;
    QString keyLabel;
    QString valueLabel;
    QVector<double> keys;     // ascending
    QVector<int> ids;         // what a click on each key selects (rank, stream); -1 = nothing
    QStringList keyLabels;    // tick text per key; empty = numeric ticks on the keys
    QStringList rankNames;    // per-rank charts: keys are RankIndex values, rankNames[k] names key k
    QStringList tooltips;     // per key, exact values
    QVector<BarSeries> series;
    bool horizontal = false;  // keys on the vertical axis (long category names)
    bool percent = false;     // value axis 0..100 %
    bool colorPerKey = false; // one series, but each key coloured by keyColors
    bool grouped = false;     // series side by side per key instead of stacked (may be negative)
    QVector<QColor> keyColors;
    QString message;          // shown instead of bars when there is nothing to draw
    QString footnote;         // under the axes: what the chart leaves out
};

struct BoxItem {
    double key = 0;
    int id = -1;  // rank
    double whiskerLow = 0, q1 = 0, median = 0, q3 = 0, whiskerHigh = 0;
    QVector<double> outliers;
    QString tooltip;
};

struct BoxChartData {
    QString title;
    QStringList rankNames;  // keys are RankIndex values, rankNames[k] names key k
    QString keyLabel;
    QString valueLabel;
    QVector<BoxItem> boxes;  // ascending key
    QString message;
    QString footnote;
};

struct HistogramSeries {
    QString name;
    QColor color;
    QVector<double> counts;  // one per bin
};

struct HistogramData {
    QString title;
    QString keyLabel;
    QString valueLabel;
    QVector<double> edges;  // bins + 1
    QVector<HistogramSeries> series;
    bool logKeys = false;
    QString countNoun = QStringLiteral("gaps");  // what a bin counts, in its tooltip
    QString footnote;
    QString message;
};

struct LineSeries {
    QString name;
    QColor color;
    QVector<double> keys;    // ascending (time)
    QVector<double> values;
};

// A span of the key axis drawn behind the lines (a ProfilerStep), labelled at its top.
struct KeyBand {
    double from = 0, to = 0;
    QString label;
};

// A point to call out (a peak): a dot and its label.
struct PointMarker {
    double key = 0, value = 0;
    QString label;
};

// Values over time (queue length per stream, bandwidth per copy kind): step lines, already
// thinned to what the chart can show (downsampleSteps).
struct SeriesChartData {
    QString title;
    QString keyLabel;
    QString valueLabel;
    QVector<LineSeries> series;
    QVector<KeyBand> bands;       // alternately shaded
    QVector<PointMarker> markers;
    bool steps = true;  // the value holds until the next point
    QString footnote;
    QString message;
};

// A grid of values (rank x step): cell (x, y) = values[y * xKeys.size() + x]; NaN = no value.
// How a heat map's colours span its values.
enum class HeatScale {
    FromZero,   // sequential, 0 to the largest value (lateness, durations)
    Diverging,  // signed deviations: symmetric about 0, at least +-minimumSpan
};

struct HeatMapData {
    QString title;
    QString xLabel;
    QString yLabel;
    QString valueLabel;         // the colour scale's label, with its unit
    HeatScale scale = HeatScale::FromZero;
    double minimumSpan = 0.0;   // Diverging: the scale reaches at least this far from 0
    QStringList tooltips;       // per cell (row * columns + column); empty: the value and unit
    QVector<double> xKeys;      // step numbers
    QVector<double> yKeys;      // per-rank maps: RankIndex values (see rankChartId)
    QStringList yLabels;        // tick text per row (a mark on stragglers)
    QVector<double> values;
    QString footnote;
    QString message;
};

} // namespace kscope

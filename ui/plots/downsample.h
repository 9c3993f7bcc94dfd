#pragma once

#include <QVector>

namespace kscope {

// A step series (value holds until the next point) thinned to about `buckets` buckets of equal
// time: each bucket keeps its first point, its lowest and highest value and its last point, so
// no peak (a full queue, a bandwidth burst) disappears from the chart however long the series.
// Series shorter than 4 x buckets are returned as they are.
void downsampleSteps(const QVector<double>& keys, const QVector<double>& values, int buckets, QVector<double>& outKeys,
                     QVector<double>& outValues);

} // namespace kscope

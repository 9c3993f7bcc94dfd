// The result cache's keys are derived, not written ([engine-seams]): optionsKey() spells every
// field of an analysis's options, so changing any one field of any options struct the GUI asks
// with gives another key, and equal options give equal keys.

#include <QtTest>

#ifndef Q_MOC_RUN
#include "analysis/patterns/annotations.h"
#include "analysis/collectives/collectives.h"
#include "analysis/criticalpath/criticalpath.h"
#include "analysis/operators/eventquery.h"
#include "analysis/core/idlecauses.h"
#include "analysis/core/idletime.h"
#include "analysis/core/kernelbreakdown.h"
#include "analysis/core/kerneldistribution.h"
#include "analysis/patterns/kernelpatterns.h"
#include "analysis/launch/launchstats.h"
#include "analysis/operators/memory.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/operators/operatorkernels.h"
#include "analysis/operators/operators.h"
#include "analysis/optionskey.h"
#include "analysis/core/overlap.h"
#include "analysis/launch/queuelength.h"
#include "analysis/patterns/steps.h"
#include "analysis/core/temporalbreakdown.h"
#include "analysis/diff/tracediff.h"
#endif

#include <limits>

using namespace kscope;

namespace {

using options_key_detail::IsOptional;
using options_key_detail::IsVector;

// Changes a value to another of its type.
template <typename T>
void perturb(T& value)
{
    using V = std::remove_cvref_t<T>;
    if constexpr (std::is_same_v<V, bool>)
        value = !value;
    else if constexpr (std::is_enum_v<V>)
        value = static_cast<V>(static_cast<std::underlying_type_t<V>>(value) + 1);
    else if constexpr (std::is_arithmetic_v<V>)  // no overflow at the top (a time window's open end)
        value = value == std::numeric_limits<V>::max() ? static_cast<V>(value - 1) : static_cast<V>(value + 1);
    else if constexpr (std::is_same_v<V, std::string>)
        value += "x";
    else if constexpr (std::is_same_v<V, std::filesystem::path>)
        value /= "x";
    else if constexpr (IsOptional<V>::value) {
        if (value)
            value.reset();
        else
            value.emplace();
    }
    else if constexpr (IsVector<V>::value)
        value.emplace_back();
    else {  // an aggregate: change its first field
        bool done = false;
        options_key_detail::forEachField(value, [&done](auto& field) {
            if (!std::exchange(done, true))
                perturb(field);
        });
    }
}

// For every field of Options: a copy with only that field changed has another key.
template <typename Options>
QStringList fieldsMissingFromTheKey(const char* type)
{
    const Options base{};
    const std::string baseKey = optionsKey(base);
    QStringList missing;
    constexpr size_t fields = options_key_detail::fieldCount<Options>();
    for (size_t i = 0; i < fields; ++i) {
        Options changed{};
        size_t at = 0;
        options_key_detail::forEachField(changed, [&](auto& field) {
            if (at++ == i)
                perturb(field);
        });
        if (optionsKey(changed) == baseKey)
            missing << QStringLiteral("%1 field %2").arg(QLatin1String(type)).arg(i);
    }
    if (fields == 0)
        missing << QStringLiteral("%1 has no field found").arg(QLatin1String(type));
    if (optionsKey(Options{}) != baseKey)
        missing << QStringLiteral("%1: equal options, different keys").arg(QLatin1String(type));
    return missing;
}

} // namespace

class TestOptionsKey : public QObject {
    Q_OBJECT

private slots:
    void everyFieldOfEveryViewsOptionsIsInTheKey()
    {
        QStringList missing;
#define KSCOPE_CHECK(Options) missing << fieldsMissingFromTheKey<Options>(#Options)
        KSCOPE_CHECK(TemporalOptions);
        KSCOPE_CHECK(OverlapOptions);
        KSCOPE_CHECK(IdleTimeOptions);
        KSCOPE_CHECK(IdleHistogramOptions);
        KSCOPE_CHECK(IdleCausesOptions);
        KSCOPE_CHECK(KernelBreakdownOptions);
        KSCOPE_CHECK(KernelDistributionOptions);
        KSCOPE_CHECK(LaunchStatsOptions);
        KSCOPE_CHECK(QueueLengthOptions);
        KSCOPE_CHECK(MemoryBandwidthOptions);
        KSCOPE_CHECK(OperatorOptions);
        KSCOPE_CHECK(OperatorKernelsOptions);
        KSCOPE_CHECK(KernelPatternOptions);
        KSCOPE_CHECK(AnnotationOptions);
        KSCOPE_CHECK(MemoryOptions);
        KSCOPE_CHECK(CollectiveOptions);
        KSCOPE_CHECK(CriticalPathOptions);
        KSCOPE_CHECK(TraceDiffOptions);
        KSCOPE_CHECK(DiffSummaryOptions);
        KSCOPE_CHECK(StragglerOptions);
        KSCOPE_CHECK(EventFilter);
#undef KSCOPE_CHECK
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QStringLiteral("; "))));
    }

    void fieldCountsAreTheStructs()
    {
        // The arity detector against structs whose fields are known.
        QCOMPARE(options_key_detail::fieldCount<IdleTimeOptions>(), size_t(5));
        QCOMPARE(options_key_detail::fieldCount<CriticalPathOptions>(), size_t(10));
        QCOMPARE(options_key_detail::fieldCount<TraceDiffOptions>(), size_t(9));
    }

    void textCannotForgeAFieldBoundary()
    {
        KernelPatternOptions a, b;
        a.operatorName = "x,T";
        b.operatorName = "x";
        b.htaCompat = true;
        QVERIFY(optionsKey(a) != optionsKey(b));
        // Doubles by their bits: 0.1 + 0.2 is not 0.3, and -0 is not 0.
        IdleTimeOptions c, d;
        c.consecutiveKernelDelayUs = 0.1 + 0.2;
        d.consecutiveKernelDelayUs = 0.3;
        QVERIFY(optionsKey(c) != optionsKey(d));
    }
};

QTEST_APPLESS_MAIN(TestOptionsKey)
#include "tst_options_key.moc"

#include "plots/palette.h"

#include "analysis/criticalpath/criticalpath.h"

#include <QStringList>

namespace kscope::palette {

namespace {

QColor blend(const QColor& a, const QColor& b)
{
    return QColor((a.red() + b.red()) / 2, (a.green() + b.green()) / 2, (a.blue() + b.blue()) / 2);
}

KernelType typeFromLabel(const QString& label)
{
    if (label == QLatin1String("COMMUNICATION"))
        return KernelType::Communication;
    if (label == QLatin1String("MEMORY"))
        return KernelType::Memory;
    if (label == QLatin1String("COMPUTATION"))
        return KernelType::Computation;
    return KernelType::Other;
}

} // namespace

QColor idleTime() { return QColor(0x63, 0x6e, 0xfa); }
QColor computeTime() { return QColor(0xef, 0x55, 0x3b); }
QColor nonComputeTime() { return QColor(0x00, 0xcc, 0x96); }

QColor kernelType(KernelType type)
{
    switch (type) {
    case KernelType::Computation: return computeTime();
    case KernelType::Communication: return nonComputeTime();
    case KernelType::Memory: return QColor(0xab, 0x63, 0xfa);
    case KernelType::Other: break;
    }
    return QColor(0xff, 0xa1, 0x5a);
}

QColor criticalPathBound(CpBound bound)
{
    switch (bound) {
    case CpBound::CpuBound: return QColor(0x8c, 0x56, 0x4b);
    case CpBound::DataLoading: return QColor(0xbc, 0xbd, 0x22);
    case CpBound::GpuComputeBound: return computeTime();
    case CpBound::GpuCommunicationBound: return kernelType(KernelType::Communication);
    case CpBound::GpuKernelLaunchOverhead: return idleTime();
    case CpBound::GpuKernelKernelOverhead: return QColor(0x9e, 0xc9, 0xe2);
    case CpBound::None: break;
    }
    return Qt::gray;
}

QColor kernelTypeSlice(const QString& label)
{
    // Overlap slices mix the colours of the two types, so a reader can still tell their parts.
    const QStringList parts = label.split(QStringLiteral(" overlapping "));
    if (parts.size() == 2)
        return blend(kernelType(typeFromLabel(parts[0])), kernelType(typeFromLabel(parts[1])));
    return kernelType(typeFromLabel(label));
}

QColor idleCategory(IdleCategory category)
{
    // Shades of the temporal breakdown's idle blue: every idle cause is still "idle".
    switch (category) {
    case IdleCategory::HostWait: return idleTime();
    case IdleCategory::KernelWait: return QColor(0x19, 0xd3, 0xf3);
    case IdleCategory::Other: break;
    }
    return QColor(0xa4, 0xa9, 0xc8);
}

QColor idleCause(IdleCause cause)
{
    switch (cause) {
    case IdleCause::Synchronization: return QColor(0xd6, 0x27, 0x28);
    case IdleCause::DataLoading: return QColor(0xff, 0x7f, 0x0e);
    case IdleCause::OptimizerStep: return QColor(0x94, 0x67, 0xbd);
    case IdleCause::CpuOp: return QColor(0xe3, 0x77, 0xc2);
    case IdleCause::LaunchOverhead: return QColor(0x19, 0xd3, 0xf3);
    case IdleCause::StreamWait: return idleTime();
    case IdleCause::GpuQueued: return QColor(0xa4, 0xa9, 0xc8);
    case IdleCause::NoHostActivity: return QColor(0xc7, 0xc7, 0xc7);
    case IdleCause::LaunchNotInTrace: break;
    }
    return QColor(0x7f, 0x7f, 0x7f);
}

QColor overlap() { return kernelTypeSlice(QStringLiteral("COMPUTATION overlapping COMMUNICATION")); }
QColor selectionBand() { return QColor(255, 210, 0, 40); }
QColor selectionOutline() { return QColor(215, 140, 0); }
QColor boxFill() { return QColor(0x63, 0x6e, 0xfa, 90); }
QColor diffControl() { return QColor(0x8c, 0x96, 0xa8); }
QColor diffTest() { return QColor(0x63, 0x6e, 0xfa); }
QColor diffChange() { return QColor(0xef, 0x55, 0x3b); }
QColor series(int n)
{
    static const QColor kColors[] = {QColor(0x63, 0x6e, 0xfa), QColor(0xef, 0x55, 0x3b), QColor(0x00, 0xcc, 0x96),
                                     QColor(0xab, 0x63, 0xfa), QColor(0xff, 0xa1, 0x5a), QColor(0x19, 0xd3, 0xf3),
                                     QColor(0xff, 0x66, 0x92), QColor(0xb6, 0xe8, 0x80)};
    return kColors[n % 8];
}

} // namespace kscope::palette

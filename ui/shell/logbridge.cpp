#include "shell/logbridge.h"

#include "model/log.h"

#include <QLoggingCategory>

namespace kscope {

namespace {
Q_LOGGING_CATEGORY(lcModel, "kscope.model")
Q_LOGGING_CATEGORY(lcAnalysis, "kscope.analysis")
Q_LOGGING_CATEGORY(lcUi, "kscope.ui")
Q_LOGGING_CATEGORY(lcCli, "kscope.cli")

const QLoggingCategory& categoryOf(LogCategory category)
{
    switch (category) {
    case LogCategory::Model: return lcModel();
    case LogCategory::Analysis: return lcAnalysis();
    case LogCategory::Ui: return lcUi();
    case LogCategory::Cli: return lcCli();
    }
    return lcUi();
}
} // namespace

void installLogBridge()
{
    Log::configureFromEnvironment();
    Log::setSink([](LogCategory category, LogLevel level, const std::string& message) {
        const QLoggingCategory& qt = categoryOf(category);
        const QString text = QString::fromStdString(message);
        switch (level) {
        case LogLevel::Debug: qCDebug(qt).noquote() << text; break;
        case LogLevel::Info: qCInfo(qt).noquote() << text; break;
        case LogLevel::Warning: qCWarning(qt).noquote() << text; break;
        case LogLevel::Error:
        case LogLevel::Off: qCCritical(qt).noquote() << text; break;
        }
    });
}

} // namespace kscope

#pragma once

namespace kscope {

// Routes the engine's Qt-free log (model/log.h) into Qt's logging categories kscope.model,
// kscope.analysis, kscope.ui and kscope.cli, so QT_LOGGING_RULES and message handlers apply.
void installLogBridge();

} // namespace kscope

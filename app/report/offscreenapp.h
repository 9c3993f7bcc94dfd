#pragma once

// A QApplication for drawing without a display (report, the timeline's frame benchmark): the
// offscreen platform unless the caller chose one, and a private XDG_RUNTIME_DIR where none is set
// (cron, CI, sudo), so Qt prints no warning on every run.

#include <QApplication>

#include <memory>

namespace kscope::cli {

std::unique_ptr<QApplication> offscreenApplication();

} // namespace kscope::cli

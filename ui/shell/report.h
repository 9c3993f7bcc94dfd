#pragma once

#include <QString>
#include <QStringList>

#include <memory>

namespace kscope {

struct Run;

// The headless report: every registered view drawn offscreen with the same code as the window,
// each chart as PNG, each table as CSV, and an index.html that puts them together with the
// run's metadata and import issues. A new view appears in the report without code here.
struct ReportInput {
    std::shared_ptr<const Run> run;
    QString path;
    std::shared_ptr<const Run> compare;  // optional: the Comparison view then has both runs
    QString comparePath;
};

struct ReportOutput {
    QStringList files;  // everything written, index.html last
    QString indexPath;
    QString error;      // set when nothing could be written
};

// Needs a QApplication (any platform, offscreen included).
ReportOutput writeReport(const ReportInput& input, const QString& outDir);

} // namespace kscope

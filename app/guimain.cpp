// kinetoscope [RUN_DIR]: the desktop application. Without an argument it opens the bundled
// sample run (and says so in the title and status bar) so a first start shows real charts.

#include "shell/logbridge.h"
#include "shell/mainwindow.h"

#include "session/runsession.h"
#include "views/viewspec.h"

#include "model/trace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QTimer>

#include <cstring>

namespace {

// The command line, described once for the text-only answers and the window.
struct CommandLine {
    QCommandLineParser parser;
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Write a PNG of the window once every panel shows its result, then quit."),
                                  QStringLiteral("PNG")};
    QCommandLineOption show{QStringLiteral("show"), QStringLiteral("Bring this view's tab to the front (e.g. timeline, critical-path)."),
                            QStringLiteral("VIEW")};
    QCommandLineOption compare{QStringLiteral("compare"),
                               QStringLiteral("A second run to compare with (the Comparison view shows both)."), QStringLiteral("RUN2")};

    CommandLine()
    {
        parser.setApplicationDescription(QStringLiteral("Analyse PyTorch profiler traces of distributed training runs."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(QStringLiteral("RUN_DIR"),
                                     QStringLiteral("A folder of Kineto traces (*.json, *.json.gz) or one trace file. "
                                                    "Default: the bundled sample run."),
                                     QStringLiteral("[RUN_DIR]"));
        parser.addOptions({screenshot, show, compare});
    }
};

// --help and --version answer in text: no display is needed (a server, ssh, CI).
bool textOnly(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        for (const char* flag : {"-h", "--help", "--help-all", "-?", "-v", "--version"})
            if (std::strcmp(argv[i], flag) == 0)
                return true;
    return false;
}

void nameApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("Kinetoscope"));
    QCoreApplication::setOrganizationName(QStringLiteral("Kinetoscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KSCOPE_VERSION));
}

} // namespace

int main(int argc, char** argv)
{
    if (textOnly(argc, argv)) {
        QCoreApplication core(argc, argv);
        nameApplication();
        CommandLine commandLine;
        commandLine.parser.process(core);  // prints and exits
        return 0;
    }
    QApplication app(argc, argv);
    nameApplication();
    CommandLine commandLine;
    QCommandLineParser& parser = commandLine.parser;
    parser.process(app);
    kscope::installLogBridge();

    kscope::MainWindow window;
    if (parser.isSet(commandLine.show)) {
        QDockWidget* dock = window.dock(parser.value(commandLine.show));
        if (!dock) {
            QStringList ids;
            for (const kscope::ViewSpec& spec : kscope::viewRegistry())
                ids << spec.id;
            qCritical("kinetoscope: no view '%s'; views: %s", qPrintable(parser.value(commandLine.show)),
                      qPrintable(ids.join(QStringLiteral(", "))));
            return 2;
        }
        dock->show();
        dock->raise();
    }
    window.show();
    const QStringList args = parser.positionalArguments();
    if (args.isEmpty())
        window.openSampleRun();
    else
        window.openRun(args.front());

    // The comparison once the run is in (it is compared against what is shown).
    const QString compare = parser.value(commandLine.compare);
    bool compareAsked = false;
    int idleSinceCompare = 0;  // polls with nothing loading since the comparison was asked for
    const auto ready = [&] {
        if (window.isBusy() || !window.run())
            return false;
        if (!compare.isEmpty() && !compareAsked) {
            compareAsked = true;
            window.openComparison(compare);
            return false;
        }
        // A comparison that failed to load says so in the window; a second idle poll ends the wait.
        return compare.isEmpty() || window.session()->testRun() != nullptr || ++idleSinceCompare > 2;
    };
    auto* poll = new QTimer(&window);
    const QString screenshot = parser.value(commandLine.screenshot);
    QObject::connect(poll, &QTimer::timeout, &window, [&, poll] {
        if (!ready())
            return;
        poll->stop();
        if (screenshot.isEmpty())
            return;
        // Polls rather than chaining signals: the runs, then every panel's jobs must be done.
        QTimer::singleShot(300, &window, [&window, screenshot, compare] {
            const bool saved = window.grab().save(screenshot);
            // A run with no usable rank, or a comparison asked for and not loaded, is a failure a
            // script must see, not a picture of one.
            const bool usable = !window.run()->ranks.empty();
            const auto other = window.session()->testRun();
            const bool compared = compare.isEmpty() || (other && !other->ranks.empty());
            if (!usable || !compared)
                qWarning("%s", qPrintable(compared ? window.bannerText() : QStringLiteral("kinetoscope: the compared run has no usable rank: ") + compare));
            QApplication::exit(saved && usable && compared ? 0 : 1);
        });
    });
    poll->start(100);
    return QApplication::exec();
}

// kinetoscope [RUN_DIR]: the desktop application. Without an argument it opens the bundled
// sample run (and says so in the title and status bar) so a first start shows real charts.

#include "shell/logbridge.h"
#include "shell/mainwindow.h"

#include "views/viewspec.h"

#include "model/trace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QTimer>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Kinetoscope"));
    QApplication::setOrganizationName(QStringLiteral("Kinetoscope"));
    QApplication::setApplicationVersion(QStringLiteral(KSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Analyse PyTorch profiler traces of distributed training runs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("RUN_DIR"),
                                 QStringLiteral("A folder of Kineto traces (*.json, *.json.gz) or one trace file. "
                                                "Default: the bundled sample run."),
                                 QStringLiteral("[RUN_DIR]"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Write a PNG of the window once every panel shows its result, then quit."),
                                        QStringLiteral("PNG"));
    parser.addOption(screenshot);
    const QCommandLineOption show(QStringLiteral("show"), QStringLiteral("Bring this view's tab to the front (e.g. timeline, critical-path)."),
                                  QStringLiteral("VIEW"));
    parser.addOption(show);
    parser.process(app);
    kscope::installLogBridge();

    kscope::MainWindow window;
    if (parser.isSet(show)) {
        QDockWidget* dock = window.dock(parser.value(show));
        if (!dock) {
            QStringList ids;
            for (const kscope::ViewSpec& spec : kscope::viewRegistry())
                ids << spec.id;
            qCritical("kinetoscope: no view '%s'; views: %s", qPrintable(parser.value(show)), qPrintable(ids.join(QStringLiteral(", "))));
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

    if (parser.isSet(screenshot)) {
        // Polls rather than chaining signals: the run, then every panel's jobs must be done.
        const QString path = parser.value(screenshot);
        auto* timer = new QTimer(&window);
        QObject::connect(timer, &QTimer::timeout, &window, [&window, timer, path] {
            if (window.isBusy() || !window.run())
                return;
            timer->stop();
            QTimer::singleShot(300, &window, [&window, path] {
                const bool saved = window.grab().save(path);
                // A run with no usable rank is a failure a script must see, not a picture of one.
                const bool usable = !window.run()->ranks.empty();
                if (!usable)
                    qWarning("%s", qPrintable(window.bannerText()));
                QApplication::exit(saved && usable ? 0 : 1);
            });
        });
        timer->start(100);
    }
    return QApplication::exec();
}

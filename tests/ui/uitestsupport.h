#pragma once

// Helpers for the GUI tests: waiting on the window's signals, finding views, reading charts.

#include "plots/chartview.h"
#include "shell/mainwindow.h"
#include "views/analysisview.h"

#include <QImage>
#include <QSet>
#include <QSignalSpy>
#include <QtTest>

namespace kscope::test {

constexpr int kUiTimeoutMs = 60000;

inline int pointCount(ChartView* chart, int plottable = 0)
{
    auto* p = chart->plottable(plottable);
    return p && p->interface1D() ? p->interface1D()->dataCount() : -1;
}

inline int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

// KSCOPE_SCREENSHOT_DIR=/some/dir saves the window at each step, to look at what is drawn.
inline void screenshot(QWidget* window, const char* name)
{
    const QByteArray dir = qgetenv("KSCOPE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        window->grab().save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
}

// Waits until the window has a run and nothing is loading or computing.
// The selection by rank number, as a reader names ranks (the shown run's numbers; the first file
// claiming a number where two do).
inline QList<int> selectedRankNumbers(MainWindow& window)
{
    QList<int> numbers;
    const auto run = window.session()->run();
    for (RankIndex index : window.session()->selection()->ranks())
        numbers << (run && run->has(index) ? run->at(index).rank : -1);
    return numbers;
}
inline int selectedRankNumber(MainWindow& window)
{
    const QList<int> numbers = selectedRankNumbers(window);
    return numbers.isEmpty() ? -1 : numbers.front();
}
inline void selectRankNumbered(MainWindow& window, int number)
{
    const auto run = window.session()->run();
    QVERIFY(run);
    const RankTrace* rank = run->findRank(number);
    QVERIFY2(rank, "the rank to select is in the run");
    window.session()->selection()->setRank(run->indexOf(*rank));
}

inline bool waitIdle(MainWindow& window)
{
    QElapsedTimer clock;
    clock.start();
    while (!(window.run() && !window.isBusy())) {
        if (clock.elapsed() > kUiTimeoutMs)
            return false;
        QSignalSpy idle(window.session(), &RunSession::idle);
        idle.wait(200);  // or a view presenting, or the load finishing: re-check either way
    }
    QCoreApplication::processEvents();
    return true;
}

// Opens a run and waits for it (the load's finished signal, then every view's result).
inline bool openAndWait(MainWindow& window, const QString& path)
{
    QSignalSpy changed(&window, &MainWindow::runChanged);
    window.openRun(path);
    if (!changed.wait(kUiTimeoutMs))
        return false;
    return waitIdle(window);
}

inline QString chartTitle(MainWindow& window, const char* view, int chart = 0)
{
    return window.view(QString::fromLatin1(view))->charts().value(chart)->title();
}

} // namespace kscope::test

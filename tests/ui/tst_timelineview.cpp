// The Timeline view as a user works it on the sample run: it draws every rank, zooms (wheel, W/S,
// double click) and pans (drag, A/D), Home shows everything again; a click selects the event under
// the cursor (the session's selection, the kernel views follow); Shift+drag selects a time span,
// which the Events view follows; a critical-path segment chosen elsewhere is outlined and brought
// into view; a step keeps the window where it fits.

#ifndef Q_MOC_RUN  // moc cannot parse <compare>; it only needs the test class
#include "analysis/collectives/clockskew.h"
#include "analysis/collectives/collectives.h"
#include "analysis/resulttable.h"
#include "model/trace.h"
#include "testsupport.h"
#endif

#include "uitestsupport.h"

#include "models/resulttableview.h"
#include "plots/timelinewidget.h"
#include "session/runsession.h"

#include <QDockWidget>
#include <QPushButton>
#include <QTabBar>
#include <QToolButton>
#include <QStandardPaths>
#include <QTableView>

using namespace kscope;
using namespace kscope::test;

class TestTimelineView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void drawsEveryRankAndZooms();
    void clickSelectsTheEventUnderTheCursor();
    void shiftDragSelectsASpanTheEventsViewFollows();
    void aSegmentChosenElsewhereComesIntoView();
    void showOnTimelineFromCollectivesAndCriticalPath();
    void findStepsThroughMatches();
    void ctrlDragZoomsToTheBox();
    void countersPathFilterAndAlignment();
    void flowArrowAndCollectiveTooltip();
    void showOnTimelineFromEveryOtherView();
    void realTraceWithPathAndCollective();
    void cleanupTestCase();

private:
    MainWindow& w() { return *m_window; }
    TimelineWidget* timeline() { return w().view(QStringLiteral("timeline"))->findChild<TimelineWidget*>(); }
    void wheel(QWidget* widget, QPoint at, int delta);
    std::unique_ptr<MainWindow> m_window;
};

void TestTimelineView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("KinetoscopeTest"));
    QSettings().clear();
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1600, 1000);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
    w().dock(QStringLiteral("timeline"))->raise();
    QVERIFY(waitIdle(w()));
}

void TestTimelineView::wheel(QWidget* widget, QPoint at, int delta)
{
    QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

void TestTimelineView::drawsEveryRankAndZooms()
{
    TimelineWidget* t = timeline();
    QVERIFY(t && t->message().isEmpty());
    // Eight rank headers, each with its streams and a folded "CPU threads" line.
    QVERIFY2(t->lineCount() >= 8 * 3, qPrintable(QString::number(t->lineCount())));
    const QImage image = t->grab().toImage();
    QVERIFY(distinctColours(image) > 8);
    QVERIFY(t->itemsDrawn() > 0);
    screenshot(t, "timeline-whole-run");
    // Export All writes it as timeline.png, as drawn.
    const auto folder = scratchDir("kscope-ui-timeline-export");
    const QStringList written = w().exportAll(QString::fromStdString(folder.string()));
    QVERIFY2(written.contains(QString::fromStdString((folder / "timeline.png").string())), qPrintable(written.join(QLatin1Char(' '))));
    QCOMPARE(QImage(QString::fromStdString((folder / "timeline.png").string())).size(), t->size().expandedTo(QSize(900, 500)));
    const qint64 from = t->windowFromNs(), to = t->windowToNs();
    QVERIFY(to - from > 0);

    // The wheel zooms in at the cursor: the time under it stays put.
    const QPoint at(t->width() / 2, t->height() / 2);
    wheel(t, at, 240);
    QVERIFY(t->windowToNs() - t->windowFromNs() < (to - from) * 0.7);
    QVERIFY(t->windowFromNs() > from && t->windowToNs() < to);
    // W zooms in more, S out, D pans right, Home shows the whole run again.
    const qint64 zoomed = t->windowToNs() - t->windowFromNs();
    t->setFocus();
    QTest::keyClick(t, Qt::Key_W);
    QVERIFY(t->windowToNs() - t->windowFromNs() < zoomed);
    QTest::keyClick(t, Qt::Key_S);
    const qint64 before = t->windowFromNs();
    QTest::keyClick(t, Qt::Key_D);
    QVERIFY(t->windowFromNs() > before);
    // Dragging left moves later in time (from the middle of the run, where there is room).
    QTest::keyClick(t, Qt::Key_Home);
    wheel(t, at, 240);
    const qint64 beforeDrag = t->windowFromNs();
    QTest::mousePress(t, Qt::LeftButton, Qt::NoModifier, at);
    QTest::mouseMove(t, at - QPoint(60, 0));
    QTest::mouseMove(t, at - QPoint(120, 0));
    QTest::mouseRelease(t, Qt::LeftButton, Qt::NoModifier, at - QPoint(120, 0));
    QVERIFY(t->windowFromNs() > beforeDrag);
    screenshot(t, "timeline-zoomed");
    QTest::keyClick(t, Qt::Key_Home);
    QCOMPARE(t->windowFromNs(), from);
    QCOMPARE(t->windowToNs(), to);
}

void TestTimelineView::clickSelectsTheEventUnderTheCursor()
{
    TimelineWidget* t = timeline();
    // A kernel of rank 0's busiest stream, zoomed to.
    const Run& slice = *w().session()->slice();
    const EventTable& events = slice.ranks[0].events;
    EventIndex kernel = kNoEvent;
    for (size_t i = events.size() / 2; i < events.size() && kernel == kNoEvent; ++i)
        if (events.kind[i] == EventKind::Kernel && events.durNs[i] > 5000)
            kernel = EventIndex(i);
    QVERIFY(kernel != kNoEvent);
    t->showSpan(events.tsNs[kernel] - slice.minTsNs, events.endNs(kernel) - slice.minTsNs);
    const QPoint at = t->pointOf(EventRef{RankIndex{0}, kernel});
    QVERIFY2(!at.isNull(), "the kernel is on screen");
    QCOMPARE(t->eventAt(at), std::optional<EventRef>(EventRef{RankIndex{0}, kernel}));
    QTest::mouseClick(t, Qt::LeftButton, Qt::NoModifier, at);
    const std::optional<EventRef> selected = w().session()->selection()->event();
    QVERIFY(selected.has_value());
    QCOMPARE(selected->rank, RankIndex{0});
    QCOMPARE(slice.ranks[0].rowOfRunEvent(selected->event), kernel);
    QCOMPARE(w().session()->selection()->kernel(), events.name[kernel].value);
    screenshot(t, "timeline-kernel-selected");
    QTest::keyClick(t, Qt::Key_Home);
}

void TestTimelineView::shiftDragSelectsASpanTheEventsViewFollows()
{
    TimelineWidget* t = timeline();
    const QPoint a(t->width() / 3, t->height() / 2), b(t->width() / 2, t->height() / 2);
    QTest::mousePress(t, Qt::LeftButton, Qt::ShiftModifier, a);
    QTest::mouseMove(t, a + QPoint(10, 0));
    QTest::mouseMove(t, b);
    QTest::mouseRelease(t, Qt::LeftButton, Qt::ShiftModifier, b);
    const TimeRange range = w().session()->selection()->timeRange();
    QVERIFY(!range.isEmpty());
    // What ran inside it, by name, counted from the events themselves.
    QVERIFY(waitIdle(w()));
    const Run& slice = *w().session()->slice();
    int64_t overlapping = 0;
    for (const RankTrace& rank : slice.ranks)
        for (size_t i = 0; i < rank.events.size(); ++i) {
            const EventKind kind = rank.events.kind[i];
            if ((kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset) && rank.events.stream[i] >= 0
                && rank.events.tsNs[i] - slice.minTsNs < range.endNs && rank.events.endNs(EventIndex(i)) - slice.minTsNs > range.beginNs)
                ++overlapping;
        }
    QVERIFY(overlapping > 0);
    const QList<TableExport> tables = w().view(QStringLiteral("timeline"))->tables();
    QCOMPARE(tables.size(), 1);
    QCOMPARE(tables.front().name, QStringLiteral("timeline-span"));
    // The span's events by name, with the short names the screen shows beside the full ones.
    const std::vector<TableColumn>& columns = tables.front().table.columns;
    QVERIFY(std::find(columns.begin(), columns.end(), "short_name") == columns.begin() + 1);
    const size_t events = size_t(std::find(columns.begin(), columns.end(), "count") - columns.begin());
    QVERIFY(events < columns.size());
    int64_t counted = 0;
    for (const std::vector<Cell>& row : tables.front().table.rows)
        counted += std::get<int64_t>(row.at(events));
    QCOMPARE(counted, overlapping);
    screenshot(w().view(QStringLiteral("timeline")), "timeline-span");
    // The span is what was dragged over, within a pixel's worth of time.
    const double nsPerPixel = double(t->windowToNs() - t->windowFromNs()) / double(t->width() - 200);
    QVERIFY(double(range.endNs - range.beginNs) > 0.8 * nsPerPixel * (b.x() - a.x()));
    w().dock(QStringLiteral("events"))->raise();
    QVERIFY(waitIdle(w()));
    auto* table = w().view(QStringLiteral("events"))->findChild<QTableView*>();
    QVERIFY(table->model()->rowCount() > 0);
    QVERIFY(size_t(table->model()->rowCount()) < w().session()->slice()->ranks[0].events.size());
    w().session()->selection()->setTimeRange({});
    w().dock(QStringLiteral("timeline"))->raise();
    QVERIFY(waitIdle(w()));
}

void TestTimelineView::aSegmentChosenElsewhereComesIntoView()
{
    // The critical path's first segment: its event is outlined here and its span in view.
    w().dock(QStringLiteral("critical-path"))->raise();
    QVERIFY(waitIdle(w()));
    ResultTableView* breakdown = w().view(QStringLiteral("critical-path"))->tableViews().front();
    breakdown->setCurrentIndex(breakdown->model()->index(3, 0));
    const TimeRange range = w().session()->selection()->timeRange();
    QVERIFY(!range.isEmpty());
    w().dock(QStringLiteral("timeline"))->raise();
    QVERIFY(waitIdle(w()));
    TimelineWidget* t = timeline();
    QVERIFY(t->windowFromNs() <= range.beginNs && range.endNs <= t->windowToNs());
    QVERIFY(t->windowToNs() - t->windowFromNs() < 4 * std::max<qint64>(range.endNs - range.beginNs, 200));
    screenshot(t, "timeline-critical-path-segment");
    // A step chosen: the window stays where it fits in the step's slice.
    const int step = w().run()->ranks.front().steps.front().number;
    w().session()->selection()->setStep(step);
    QVERIFY(waitIdle(w()));
    QVERIFY(timeline()->message().isEmpty());
    QVERIFY(timeline()->lineCount() > 0);
    w().session()->selection()->setStep(-1);
    w().session()->selection()->setTimeRange({});
    QVERIFY(waitIdle(w()));
}

void TestTimelineView::showOnTimelineFromCollectivesAndCriticalPath()
{
    const auto frontTab = [this](const QString& title) {
        for (QTabBar* bar : w().findChildren<QTabBar*>())
            for (int i = 0; i < bar->count(); ++i)
                if (bar->tabText(i) == title)
                    return bar->currentIndex() == i;
        return true;  // not tabbed: on its own, in front
    };
    const auto showButton = [this](const char* view) {
        for (QPushButton* button : w().view(QString::fromLatin1(view))->findChildren<QPushButton*>())
            if (button->text() == QLatin1String("Show on timeline"))
                return button;
        return static_cast<QPushButton*>(nullptr);
    };
    // A collective instance: its span in view, its last rank's kernel outlined.
    w().dock(QStringLiteral("collectives"))->raise();
    QVERIFY(waitIdle(w()));
    QPushButton* fromCollectives = showButton("collectives");
    QVERIFY(fromCollectives && !fromCollectives->isEnabled());  // nothing chosen yet
    ResultTableView* instances = w().view(QStringLiteral("collectives"))->tableViews().front();
    instances->setCurrentIndex(instances->model()->index(2, 0));
    QVERIFY(fromCollectives->isEnabled());
    fromCollectives->click();
    QVERIFY(frontTab(QStringLiteral("Timeline")));
    QVERIFY(waitIdle(w()));
    TimeRange range = w().session()->selection()->timeRange();
    QVERIFY(!range.isEmpty());
    QVERIFY(timeline()->windowFromNs() <= range.beginNs && range.endNs <= timeline()->windowToNs());
    const std::optional<EventRef> kernel = w().session()->selection()->event();
    QVERIFY(kernel.has_value());
    QVERIFY(w().run()->at(kernel->rank).events.kind[kernel->event] == EventKind::Kernel);
    QVERIFY(!timeline()->pointOf(*kernel).isNull());  // drawn, on screen
    // The same instance on every rank that took part, each rank's wait shaded.
    QCOMPARE(timeline()->collectiveMarkCount(), size_t(8));
    screenshot(timeline(), "timeline-collective");

    // The critical path without a chosen segment: its whole window.
    w().dock(QStringLiteral("critical-path"))->raise();
    QVERIFY(waitIdle(w()));
    w().session()->selection()->setTimeRange({});
    showButton("critical-path")->click();
    QVERIFY(frontTab(QStringLiteral("Timeline")));
    QVERIFY(waitIdle(w()));
    range = w().session()->selection()->timeRange();
    QVERIFY(!range.isEmpty());
    QVERIFY(timeline()->windowFromNs() <= range.beginNs && range.endNs <= timeline()->windowToNs());
    w().session()->selection()->setTimeRange({});
    QVERIFY(waitIdle(w()));
}

void TestTimelineView::findStepsThroughMatches()
{
    // Every drawn event named like the pattern, in time order; next zooms to each and selects it.
    w().session()->setOption(QStringLiteral("timeline"), QStringLiteral("find"), QStringLiteral("^ncclDevKernel_AllReduce"));
    QVERIFY(waitIdle(w()));
    const Run& slice = *w().session()->slice();
    int expected = 0;
    for (const RankTrace& rank : slice.ranks)
        for (size_t i = 0; i < rank.events.size(); ++i)
            expected += rank.events.kind[i] == EventKind::Kernel && slice.str(rank.events.name[i]).starts_with("ncclDevKernel_AllReduce");
    QVERIFY(expected > 8);
    AnalysisView* view = w().view(QStringLiteral("timeline"));
    const auto label = [view](const QString& prefix) {
        for (QLabel* l : view->findChildren<QLabel*>())
            if (l->text().startsWith(prefix))
                return true;
        return false;
    };
    QVERIFY(label(QStringLiteral("%1 matches").arg(expected)));
    QToolButton* next = nullptr;
    for (QToolButton* b : view->findChildren<QToolButton*>())
        if (b->text() == QStringLiteral("▶"))
            next = b;
    QVERIFY(next && next->isEnabled());
    QTest::keyClick(timeline(), Qt::Key_Home);
    next->click();
    const std::optional<EventRef> first = w().session()->selection()->event();
    QVERIFY(first.has_value());
    QVERIFY(slice.str(slice.at(first->rank).events.name[first->event]).starts_with("ncclDevKernel_AllReduce"));
    QVERIFY(label(QStringLiteral("1 of %1").arg(expected)));
    const EventTable& t = slice.at(first->rank).events;
    QVERIFY(timeline()->windowFromNs() <= t.tsNs[first->event] - slice.minTsNs);
    QVERIFY(timeline()->windowToNs() >= t.endNs(first->event) - slice.minTsNs);
    next->click();
    const std::optional<EventRef> second = w().session()->selection()->event();
    QVERIFY(second && *second != *first);
    QVERIFY(slice.at(second->rank).events.tsNs[second->event] >= t.tsNs[first->event]);
    // A bad pattern says so and finds nothing.
    w().session()->setOption(QStringLiteral("timeline"), QStringLiteral("find"), QStringLiteral("(unclosed"));
    QVERIFY(waitIdle(w()));
    QVERIFY(label(QStringLiteral("bad regex")));
    QVERIFY(!next->isEnabled());
    w().session()->setOption(QStringLiteral("timeline"), QStringLiteral("find"), QString());
    QVERIFY(waitIdle(w()));
}

void TestTimelineView::ctrlDragZoomsToTheBox()
{
    TimelineWidget* t = timeline();
    QTest::keyClick(t, Qt::Key_Home);
    const QPoint a(t->width() / 3, t->height() / 2), b(t->width() / 2, t->height() / 2);
    const double nsPerPixel = double(t->windowToNs() - t->windowFromNs()) / double(t->width() - 170 - 15);
    QTest::mousePress(t, Qt::LeftButton, Qt::ControlModifier, a);
    QTest::mouseMove(t, a + QPoint(10, 0));
    QTest::mouseMove(t, b);
    QTest::mouseRelease(t, Qt::LeftButton, Qt::ControlModifier, b);
    // The window is the box; the session's span is untouched.
    const double expected = nsPerPixel * (b.x() - a.x());
    const double shown = double(t->windowToNs() - t->windowFromNs());
    QVERIFY2(std::fabs(shown - expected) < 0.05 * expected, qPrintable(QStringLiteral("%1 vs %2").arg(shown).arg(expected)));
    QVERIFY(w().session()->selection()->timeRange().isEmpty());
    QTest::keyClick(t, Qt::Key_Home);
}

void TestTimelineView::countersPathFilterAndAlignment()
{
    TimelineWidget* t = timeline();
    const QString view = QStringLiteral("timeline");
    const int lines = t->lineCount();
    // Counter tracks: at least a queue and a memory track under each of the eight ranks.
    w().session()->setOption(view, QStringLiteral("counters"), true);
    QVERIFY(waitIdle(w()));
    QVERIFY2(timeline()->lineCount() >= lines + 16, qPrintable(QStringLiteral("%1 -> %2").arg(lines).arg(timeline()->lineCount())));
    screenshot(timeline(), "timeline-counters");
    w().session()->setOption(view, QStringLiteral("counters"), false);
    QVERIFY(waitIdle(w()));
    QCOMPARE(timeline()->lineCount(), lines);

    // The step's critical path across ranks, drawn as a chain of the Critical path view's segments.
    w().session()->setOption(view, QStringLiteral("critical-path"), true);
    QVERIFY(waitIdle(w()));
    QVERIFY(timeline()->pathMarkCount() > 3);
    // Turned on, it is brought into view: on the sample run it runs mostly on rank 5's CPU.
    w().session()->setOption(view, QStringLiteral("rows"), QStringLiteral("5"));
    w().session()->setOption(view, QStringLiteral("cpu-threads"), true);
    QVERIFY(waitIdle(w()));
    QVERIFY(timeline()->windowToNs() - timeline()->windowFromNs() < 20'000'000);
    screenshot(timeline(), "timeline-critical-path");
    w().session()->setOption(view, QStringLiteral("cpu-threads"), false);
    w().session()->setOption(view, QStringLiteral("rows"), QString());
    w().session()->setOption(view, QStringLiteral("critical-path"), false);
    QVERIFY(waitIdle(w()));
    QCOMPARE(timeline()->pathMarkCount(), size_t(0));

    // The row filter: rank 0 alone; a filter that cannot be read shows everything and says why.
    w().session()->setOption(view, QStringLiteral("rows"), QStringLiteral("0"));
    QVERIFY(waitIdle(w()));
    QVERIFY(timeline()->lineCount() * 6 < lines);
    QVERIFY(timeline()->lineCount() >= 3);
    w().session()->setOption(view, QStringLiteral("rows"), QStringLiteral("99"));  // no such rank
    QVERIFY(waitIdle(w()));
    QCOMPARE(timeline()->lineCount(), 0);
    bool none = false;
    for (QLabel* label : w().view(view)->findChildren<QLabel*>())
        none |= label->text().contains(QStringLiteral("no rank or stream matches"));
    QVERIFY(none);
    w().session()->setOption(view, QStringLiteral("rows"), QStringLiteral("0-x"));
    QVERIFY(waitIdle(w()));
    QCOMPARE(timeline()->lineCount(), lines);
    bool said = false;
    for (QLabel* label : w().view(view)->findChildren<QLabel*>())
        said |= label->text().contains(QStringLiteral("rows filter not read"));
    QVERIFY(said);
    w().session()->setOption(view, QStringLiteral("rows"), QString());
    QVERIFY(waitIdle(w()));

    // Aligned at step start: each rank shifted by how much later its first step began.
    w().session()->setOption(view, QStringLiteral("align-steps"), true);
    QVERIFY(waitIdle(w()));
    const Run& slice = *w().session()->slice();
    int64_t earliest = INT64_MAX;
    for (const RankTrace& rank : slice.ranks)
        earliest = std::min(earliest, rank.steps.front().startNs);
    bool shifted = false;
    for (size_t r = 0; r < slice.ranks.size(); ++r) {
        QCOMPARE(timeline()->shiftOf(RankIndex{uint32_t(r)}), qint64(slice.ranks[r].steps.front().startNs - earliest));
        shifted |= timeline()->shiftOf(RankIndex{uint32_t(r)}) != 0;
    }
    QVERIFY(shifted);
    screenshot(timeline(), "timeline-aligned");
    // On one clock instead: the menu's toggle turns step alignment off, each rank is shifted by
    // the offset clock-skew estimates, and the caption says on whose clock.
    QAction* clocks = nullptr;
    for (QAction* action : w().view(view)->findChildren<QAction*>())
        if (action->text().startsWith(QStringLiteral("Align rank clocks")))
            clocks = action;
    QVERIFY(clocks);
    clocks->setChecked(true);
    QVERIFY(waitIdle(w()));
    QCOMPARE(w().session()->option(view, QStringLiteral("align-steps")).toBool(), false);
    const ClockSkew skew = matchCollectives(*w().session()->slice(), {.compareWithHta = false}).clockSkew;
    QVERIFY(skew.referenceRank >= 0);
    for (const RankClockOffset& offset : skew.ranks)
        QCOMPARE(timeline()->shiftOf(RankIndex{offset.rankIndex}), qint64(offset.estimated ? offset.offsetNs : 0));
    bool onClock = false;
    for (QLabel* label : w().view(view)->findChildren<QLabel*>())
        onClock |= label->text().contains(QStringLiteral("clocks aligned on rank %1's").arg(skew.referenceRank));
    QVERIFY(onClock);
    clocks->setChecked(false);
    QVERIFY(waitIdle(w()));
    QCOMPARE(timeline()->shiftOf(RankIndex{1}), qint64(0));
}

void TestTimelineView::flowArrowAndCollectiveTooltip()
{
    // A launched kernel selected with the CPU threads open: the arrow from its launch is drawn.
    w().session()->setOption(QStringLiteral("timeline"), QStringLiteral("cpu-threads"), true);
    QVERIFY(waitIdle(w()));
    TimelineWidget* t = timeline();
    const Run& slice = *w().session()->slice();
    const EventTable& events = slice.ranks[0].events;
    EventIndex kernel = kNoEvent, collective = kNoEvent;
    for (size_t i = events.size() / 2; i < events.size(); ++i) {
        if (kernel == kNoEvent && events.kind[i] == EventKind::Kernel && events.link[i] != kNoEvent && events.durNs[i] > 5000)
            kernel = EventIndex(i);
        if (collective == kNoEvent && events.kind[i] == EventKind::Kernel && slice.str(events.name[i]).starts_with("ncclDevKernel_AllReduce"))
            collective = EventIndex(i);
    }
    QVERIFY(kernel != kNoEvent && collective != kNoEvent);
    const EventIndex launch = events.link[kernel];
    t->showSpan(events.tsNs[launch] - slice.minTsNs, events.endNs(kernel) - slice.minTsNs);
    QTest::mouseClick(t, Qt::LeftButton, Qt::NoModifier, t->pointOf(EventRef{RankIndex{0}, kernel}));
    QVERIFY(waitIdle(w()));
    (void)timeline()->grab();
    QVERIFY(timeline()->flowArrowDrawn());
    screenshot(timeline(), "timeline-flow-arrow");
    // A collective kernel's tooltip names its group, Seq and size, and its wait.
    t->showEvent(EventRef{RankIndex{0}, collective});
    const QString tip = t->tooltipAt(t->pointOf(EventRef{RankIndex{0}, collective}));
    QVERIFY2(tip.contains(QStringLiteral("Seq")) && tip.contains(QStringLiteral("process group")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("waited")) || tip.contains(QStringLiteral("arrived last")), qPrintable(tip));
    w().session()->setOption(QStringLiteral("timeline"), QStringLiteral("cpu-threads"), false);
    QVERIFY(waitIdle(w()));
}

// Launch outliers, idle gaps, patterns and the memory peak each land on the timeline: the span
// zoomed to, the event selected (a GPU op's kernel too).
void TestTimelineView::showOnTimelineFromEveryOtherView()
{
    // A view's "Show ... on timeline" button; `name`: the one of that object name (the idle view has two).
    const auto showButton = [this](const char* view, const char* name = nullptr) {
        for (QPushButton* button : w().view(QString::fromLatin1(view))->findChildren<QPushButton*>())
            if (button->text().startsWith(QLatin1String("Show")) && button->text().endsWith(QLatin1String("on timeline"))
                && (!name || button->objectName() == QLatin1String(name)))
                return button;
        return static_cast<QPushButton*>(nullptr);
    };
    // Each returns what went wrong, empty when nothing did.
    const auto landsOnTimeline = [this](QPushButton* button) -> QString {
        if (!button || !button->isEnabled())
            return QStringLiteral("no enabled button");
        button->click();
        if (!waitIdle(w()))
            return QStringLiteral("never idle");
        const TimeRange range = w().session()->selection()->timeRange();
        if (range.isEmpty())
            return QStringLiteral("no span selected");
        if (timeline()->windowFromNs() > range.beginNs || range.endNs > timeline()->windowToNs())
            return QStringLiteral("the span is not in view");
        if (timeline()->windowToNs() - timeline()->windowFromNs() >= 2 * (range.endNs - range.beginNs) + 1000)
            return QStringLiteral("not zoomed to the span");
        if (!w().session()->selection()->event())
            return QStringLiteral("no event selected");
        return {};
    };
    const auto pickRow = [this](const char* view, int tableIndex, int row) -> QString {
        w().dock(QString::fromLatin1(view))->raise();
        if (!waitIdle(w()))
            return QStringLiteral("never idle");
        ResultTableView* table = w().view(QString::fromLatin1(view))->tableViews().at(tableIndex);
        if (table->model()->rowCount() <= row)
            return QStringLiteral("%1 rows").arg(table->model()->rowCount());
        table->setCurrentIndex(table->model()->index(row, 0));
        return {};
    };
    const auto check = [](const QString& problem, const char* what) { return problem.isEmpty() ? true : (qWarning("%s: %s", what, qPrintable(problem)), false); };
    const Run& slice = *w().session()->slice();
    // The longest idle gap: its span, and the GPU op after it, which starts where it ends.
    QVERIFY(check(pickRow("idle", 0, 0), "idle"));
    QVERIFY(!showButton("launches")->isEnabled());  // nothing chosen there yet
    QVERIFY(check(landsOnTimeline(showButton("idle", "longestGapOnTimeline")), "idle gap"));
    const TimeRange gap = w().session()->selection()->timeRange();
    const EventRef next = *w().session()->selection()->event();
    QCOMPARE(slice.at(next.rank).events.tsNs[slice.at(next.rank).rowOfRunEvent(next.event)] - slice.minTsNs, gap.endNs);
    screenshot(timeline(), "timeline-idle-gap");
    // A gap of the cause chosen in the Host causes tab (the one that held the most idle time).
    QVERIFY(!showButton("idle", "causeGapOnTimeline")->isEnabled());
    QVERIFY(check(pickRow("idle", 1, 0), "idle causes"));
    QVERIFY(check(landsOnTimeline(showButton("idle", "causeGapOnTimeline")), "idle cause gap"));
    const EventRef afterCause = *w().session()->selection()->event();
    QCOMPARE(slice.at(afterCause.rank).events.tsNs[slice.at(afterCause.rank).rowOfRunEvent(afterCause.event)] - slice.minTsNs,
             w().session()->selection()->timeRange().endNs);
    // A launch outlier: from its launch call to its kernel's end, the kernel selected.
    QVERIFY(check(pickRow("launches", 0, 0), "launches"));
    QVERIFY(check(landsOnTimeline(showButton("launches")), "launch outlier"));
    QVERIFY(!w().session()->selection()->kernelName().isEmpty());
    // A pattern's first occurrence (under "## forward ##" on the sample run): that annotation selected.
    w().session()->setOption(QStringLiteral("patterns"), QStringLiteral("operator"), QStringLiteral("## forward ##"));
    QVERIFY(check(pickRow("patterns", 0, 0), "patterns"));
    QVERIFY(check(landsOnTimeline(showButton("patterns")), "pattern"));
    const EventRef op = *w().session()->selection()->event();
    QCOMPARE(slice.str(slice.at(op.rank).events.name[slice.at(op.rank).rowOfRunEvent(op.event)]), std::string_view("## forward ##"));
    // The memory peak (where the run recorded memory): the memory counter track turned on.
    w().dock(QStringLiteral("memory"))->raise();
    QVERIFY(waitIdle(w()));
    if (QPushButton* peak = showButton("memory"); peak && peak->isEnabled()) {
        QVERIFY(check(landsOnTimeline(peak), "memory peak"));
        QVERIFY(w().session()->option(QStringLiteral("timeline"), QStringLiteral("counters"), false).toBool());
        w().session()->setOption(QStringLiteral("timeline"), QStringLiteral("counters"), false);
    }
    w().session()->setOption(QStringLiteral("patterns"), QStringLiteral("operator"), QStringLiteral("aten::linear"));
    w().session()->selection()->setTimeRange({});
    QVERIFY(waitIdle(w()));
}

// HTA's trace_filter (two real ranks): the critical path across them drawn, a NCCL kernel's
// instance outlined on both, each rank's wait told in the tooltip.
void TestTimelineView::realTraceWithPathAndCollective()
{
    const auto dir = sharedDir() / "traces" / "trace_filter";
    if (!std::filesystem::exists(dir))
        QSKIP("../shared/traces/trace_filter is not here");
    QVERIFY(openAndWait(w(), QString::fromStdString(dir.string())));
    w().dock(QStringLiteral("timeline"))->raise();
    const QString view = QStringLiteral("timeline");
    w().session()->setOption(view, QStringLiteral("critical-path"), true);
    w().session()->setOption(view, QStringLiteral("cpu-threads"), true);
    w().session()->setOption(view, QStringLiteral("rows"), QStringLiteral("1"));  // the path runs on rank 1
    QVERIFY(waitIdle(w()));
    QVERIFY(timeline()->message().isEmpty());
    QVERIFY(timeline()->pathMarkCount() > 3);
    screenshot(timeline(), "timeline-trace-filter-critical-path");
    w().session()->setOption(view, QStringLiteral("rows"), QString());
    w().session()->setOption(view, QStringLiteral("critical-path"), false);
    w().session()->setOption(view, QStringLiteral("cpu-threads"), false);
    QVERIFY(waitIdle(w()));
    // Rank 0's NCCL kernels clicked in turn: the first whose instance both ranks ran (a sampled
    // 128-rank run: some pair with no kernel of the other file) is outlined on both.
    const Run& slice = *w().session()->slice();
    const EventTable& events = slice.ranks[0].events;
    TimelineWidget* t = timeline();
    EventIndex nccl = kNoEvent;
    for (size_t i = 0; i < events.size() && nccl == kNoEvent; ++i) {
        if (events.kind[i] != EventKind::Kernel || !slice.str(events.name[i]).starts_with("ncclKernel") || events.durNs[i] < 1000000)
            continue;
        t->showEvent(EventRef{RankIndex{0}, EventIndex(i)});
        QTest::mouseClick(t, Qt::LeftButton, Qt::NoModifier, t->pointOf(EventRef{RankIndex{0}, EventIndex(i)}));
        QVERIFY(waitIdle(w()));
        if (timeline()->collectiveMarkCount() == 2)
            nccl = EventIndex(i);
    }
    QVERIFY(nccl != kNoEvent);
    const QString tip = timeline()->tooltipAt(timeline()->pointOf(EventRef{RankIndex{0}, nccl}));
    QVERIFY2(tip.contains(QStringLiteral("Seq")), qPrintable(tip));
    screenshot(timeline(), "timeline-trace-filter-collective");
    QVERIFY(openAndWait(w(), MainWindow::sampleRunPath()));
}

void TestTimelineView::cleanupTestCase() { m_window.reset(); }

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"

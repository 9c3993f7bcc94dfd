// kinetoscope-cli report, as CI would run it: every chart a PNG that is not blank, the index
// referencing each file it lists, the CSVs equal to the CLI's own output, failures with an exit code.

#ifndef Q_MOC_RUN  // moc cannot parse <stop_token>; it only needs the test class
#include "testsupport.h"
#endif

#include "uitestsupport.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QtTest>

using namespace kscope;
using namespace kscope::test;

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void writesEveryChartAndTable();
    void missingRunFails();
    void quietWithoutRuntimeDir();
    void readsInARealBrowser();
};

void TestReport::writesEveryChartAndTable()
{
    const auto dir = scratchDir("kscope-report");
    std::string output;
    const std::string cli = cliPath().string();
    const std::string sample = KSCOPE_SAMPLE_RUN_DIR;
    QCOMPARE(runCommand(cli + " report " + sample + " --out " + (dir / "out").string() + " 2>/dev/null", output), 0);
    QCOMPARE(QString::fromStdString(output).trimmed(), QString::fromStdString((dir / "out" / "index.html").string()));
    const QString html = QString::fromStdString(readFileBytes(dir / "out" / "index.html"));
    // One section per view with something to show, and every file it names is there.
    for (const char* title : {"Temporal breakdown", "Kernel breakdown", "Kernel distribution", "Idle time", "Overlap",
                              "Kernel launches", "Queue and bandwidth", "Import issues"})
        QVERIFY2(html.contains(QStringLiteral("<h2>%1</h2>").arg(QLatin1String(title))), title);
    const QRegularExpression reference(QStringLiteral("(?:src|href)=\"([^\"]+)\""));
    int images = 0;
    for (auto it = reference.globalMatch(html); it.hasNext();) {
        const QString file = it.next().captured(1);
        if (file.startsWith(QLatin1Char('#')))  // a link to a rank's section
            continue;
        QVERIFY2(std::filesystem::exists(dir / "out" / file.toStdString()), qPrintable(file));
        if (file.endsWith(QLatin1String(".png"))) {
            const QImage image(QString::fromStdString((dir / "out" / file.toStdString()).string()));
            QVERIFY2(!image.isNull() && image.width() >= 1100, qPrintable(file));
            QVERIFY2(distinctColours(image) > 4, qPrintable(file));
            ++images;
        }
    }
    QVERIFY(images >= 10);
    // The headline comes first: the step time, the stragglers, every rank's temporal numbers.
    const qsizetype head = html.indexOf(QLatin1String("<h2>Headline</h2>"));
    QVERIFY(head > 0 && head < html.indexOf(QLatin1String("<h2>Import issues</h2>")));
    QVERIFY(html.contains(QLatin1String("<b>Step time</b>")));
    QVERIFY2(html.contains(QLatin1String("Potential stragglers</b> (HTA's late-start rule): ranks <a href=\"#rank5\">5</a>, <a href=\"#rank1\">1</a>")),
             "the sample run's straggler");
    // The straggler's own section: the single-rank views of rank 5, in its folder, after the
    // first rank's.
    const qsizetype section = html.indexOf(QLatin1String("<h2 id=\"rank5\">Rank 5: a potential straggler</h2>"));
    QVERIFY(section > html.indexOf(QLatin1String("<h2>Idle time</h2>")));
    QVERIFY(html.indexOf(QLatin1String("\"rank5/idle-"), section) > section);
    QVERIFY(html.indexOf(QLatin1String("<h3>Kernel launches</h3>"), section) > section);
    QVERIFY(html.contains(QLatin1String("<p id=\"rank0\">")));
    for (int rank = 0; rank < 8; ++rank)
        QVERIFY2(html.contains(QStringLiteral("<tr><td>%1</td>").arg(rank)), qPrintable(QString::number(rank)));
    // The tables are the CLI's own output.
    // The findings open the report, before the headline, the sample run's straggler first.
    const qsizetype findings = html.indexOf(QLatin1String("<h2 id=\"findings\">Findings</h2>"));
    QVERIFY(findings > 0 && findings < head);
    QVERIFY(html.indexOf(QLatin1String("collective_straggler/rank5"), findings) > findings);
    QVERIFY(html.indexOf(QLatin1String("collective_straggler/rank5"), findings) < head);
    // The tables are the CLI's own output (findings too: the view's, from the session's results).
    for (const char* command : {"temporal", "overlap", "kernel-types", "findings"}) {
        std::string cliCsv;
        QCOMPARE(runCommand(cli + " " + command + " " + sample + " --format csv 2>/dev/null", cliCsv), 0);
        const std::string name = std::string(command) == "overlap" ? "overlap" : command;
        QCOMPARE(readFileBytes(dir / "out" / (name + ".csv")), cliCsv);
    }
}

void TestReport::missingRunFails()
{
    const auto dir = scratchDir("kscope-report-missing");
    std::string output;
    const int code = runCommand(cliPath().string() + " report " + (dir / "nothing-here").string() + " --out "
                                    + (dir / "out").string() + " 2>/dev/null",
                                output);
    QVERIFY(code != 0);
    QVERIFY(output.empty());
    QVERIFY(!std::filesystem::exists(dir / "out" / "index.html"));
}

// [trust] 14: no Qt warning about XDG_RUNTIME_DIR (cron and CI have none); -o is --out.
void TestReport::quietWithoutRuntimeDir()
{
    const auto dir = scratchDir("kscope-report-quiet");
    std::string output;
    const int code = runCommand("env -u XDG_RUNTIME_DIR " + cliPath().string() + " report " + KSCOPE_SAMPLE_RUN_DIR +
                                    " -o " + (dir / "out").string() + " 2>&1 >/dev/null",
                                output);
    QCOMPARE(code, 0);
    QVERIFY2(output.find("XDG_RUNTIME_DIR") == std::string::npos, output.c_str());
    QVERIFY(std::filesystem::exists(dir / "out" / "index.html"));
}

// The report as a reader opens it: Debian's Chromium, headless, draws index.html with its charts.
void TestReport::readsInARealBrowser()
{
    const QString chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
    if (chromium.isEmpty())
        QSKIP("Debian's chromium is not installed (packaging/install-deps.sh installs it)");
    const auto dir = scratchDir("kscope-report-browser");
    std::string output;
    QCOMPARE(runCommand(cliPath().string() + " report " + KSCOPE_SAMPLE_RUN_DIR + " --out " + (dir / "out").string()
                            + " 2>/dev/null",
                        output),
             0);
    const auto shot = dir / "page.png";
    QCOMPARE(runCommand("timeout 120 " + chromium.toStdString()
                            + " --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,2400"
                              " --screenshot=" + shot.string() + " file://" + (dir / "out" / "index.html").string()
                            + " >/dev/null 2>&1",
                        output),
             0);
    const QImage page(QString::fromStdString(shot.string()));
    QVERIFY2(!page.isNull(), "chromium wrote no screenshot");
    QCOMPARE(page.width(), 1200);
    // The headline's table and the first charts are drawn: the page is not one colour of text.
    QVERIFY2(distinctColours(page) > 50, qPrintable(QString::number(distinctColours(page))));
    // The temporal breakdown's bars: its compute colour is on the page, so the image loaded.
    bool bars = false;
    for (int y = 0; y < page.height() && !bars; y += 4)
        for (int x = 0; x < page.width() && !bars; x += 4)
            bars = page.pixelColor(x, y).red() > 220 && page.pixelColor(x, y).green() < 110 && page.pixelColor(x, y).blue() < 90;
    QVERIFY2(bars, "the charts did not load");
}

QTEST_MAIN(TestReport)
#include "tst_report.moc"

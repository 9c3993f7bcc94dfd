// kinetoscope-cli as scripts see it: exit codes, formats, rank selection, import issues in `info`.

#include <QtTest>

#ifndef Q_MOC_RUN
#include "testsupport.h"
#endif

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace kscope;

namespace {

int cli(const std::string& arguments, std::string& output)
{
    return test::runCommand(test::cliPath().string() + " " + arguments + " 2>/dev/null", output);
}

std::string sampleRun()
{
    return (test::sourceDir() / "resources" / "sample-run").string();
}

int lineCount(const std::string& text)
{
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void exitCodes_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<int>("exitCode");
        const QString sample = QString::fromStdString(sampleRun());
        const auto empty = test::scratchDir("cli-empty");
        const auto broken = test::scratchDir("cli-broken");
        test::writeFile(broken / "rank0.json", R"J({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"stream": 7}}]})J");
        test::writeFile(broken / "rank1.json", "this is not JSON");
        const QString brokenDir = QString::fromStdString(broken.string());
        QTest::newRow("ok") << "info " + sample << 0;
        QTest::newRow("help") << "info --help" << 0;
        QTest::newRow("no command") << "" << 1;
        QTest::newRow("unknown command") << "frobnicate " + sample << 1;
        QTest::newRow("missing run") << "info" << 1;
        QTest::newRow("bad format") << "info --format xml " + sample << 1;
        QTest::newRow("bad ranks") << "info --ranks 3-1 " + sample << 1;
        QTest::newRow("no usable rank") << "info " + QString::fromStdString(empty.string()) << 2;
        QTest::newRow("missing folder") << "info /nonexistent/run" << 2;
        QTest::newRow("some ranks failed") << "info " + brokenDir << 3;
        QTest::newRow("allow partial") << "info --allow-partial " + brokenDir << 0;
    }
    void exitCodes()
    {
        QFETCH(QString, arguments);
        QFETCH(int, exitCode);
        std::string output;
        QCOMPARE(cli(arguments.toStdString(), output), exitCode);
    }

    void infoCsvHasOneRowPerRank()
    {
        std::string output;
        QCOMPARE(cli("info --format csv " + sampleRun(), output), 0);
        QCOMPARE(lineCount(output), 9);  // header + 8 ranks
        QVERIFY(output.rfind("rank,file,events,gpu_kernels,memcpy,memset,cpu_ops,runtime_calls,streams,", 0) == 0);
    }

    void rankSelection()
    {
        std::string output;
        QCOMPARE(cli("temporal --format csv --ranks 1,3-4 " + sampleRun(), output), 0);
        QCOMPARE(lineCount(output), 4);
        QVERIFY(output.find("\n1,") != std::string::npos);
        QVERIFY(output.find("\n3,") != std::string::npos);
        QVERIFY(output.find("\n4,") != std::string::npos);
    }

    void jsonOutputParses()
    {
        std::string output;
        QCOMPARE(cli("overlap --format json " + sampleRun(), output), 0);
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(output));
        QVERIFY(doc.isObject());
        QCOMPARE(doc.object().value("columns").toArray().first().toString(), QString("rank"));
        const QJsonArray rows = doc.object().value("rows").toArray();
        QCOMPARE(rows.size(), 8);
        QVERIFY(rows.first().toObject().value("comp_comm_overlap_pctg").toDouble() > 0.0);
    }

    void outputFile()
    {
        const auto dir = test::scratchDir("cli-out");
        std::string output;
        QCOMPARE(cli("temporal -o " + (dir / "t.csv").string() + " " + sampleRun(), output), 0);
        QVERIFY(output.empty());
        const std::string written = test::readFileBytes(dir / "t.csv");
        QVERIFY(written.rfind("rank,idle_time(us),compute_time(us),non_compute_time(us),kernel_time(us)", 0) == 0);
        QCOMPARE(lineCount(written), 9);
    }

    void infoReportsImportIssues()
    {
        const auto dir = test::scratchDir("cli-issues");
        test::writeFile(dir / "rank0.json", R"J({"traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "bad", "pid": 0, "tid": 7, "dur": 2},
  {"ph": "X", "cat": "kernel", "name": "worse", "pid": 0, "tid": 7, "ts": 5, "dur": -1}
]})J");
        std::string output;
        QCOMPARE(cli("info --format csv " + dir.string(), output), 0);
        QVERIFY(output.find("1 missing ts") != std::string::npos);
        QVERIFY(output.find("1 negative dur") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestCli)
#include "tst_cli.moc"

#include "analysis/tables/findingstable.h"

#include "analysis/findings/findings.h"

namespace kscope {

std::string numberCell(const std::vector<int>& values)
{
    std::string text;
    for (int v : values)
        text += (text.empty() ? "" : " ") + std::to_string(v);
    return text;
}

Table findingsTable(const Findings& result)
{
    Table table;
    table.columns = {"severity", "rule", "ranks", "steps", micros("time_at_stake (us)"), "title", "detail",
                     "suggestion", "view", "command", "id"};
    for (const Finding& f : result.findings)
        table.addRow({std::string(toString(f.severity)), f.rule, numberCell(f.ranks), numberCell(f.steps),
                      f.timeAtStakeUs, f.title, f.detail, f.suggestion, f.view, f.command, f.id});
    return withNotes(std::move(table), result);
}

Table findingsDiffTable(const std::vector<FindingDiffRow>& rows, const std::string& controlLabel,
                        const std::string& testLabel)
{
    Table table;
    table.columns = {"change", "subject", controlLabel + "_severity", testLabel + "_severity",
                     controlLabel + "_ranks", testLabel + "_ranks", micros(controlLabel + "_time_at_stake (us)"),
                     micros(testLabel + "_time_at_stake (us)"), "title"};
    for (const FindingDiffRow& r : rows) {
        const auto severity = [](const Finding* f) { return f ? std::string(toString(f->severity)) : std::string(); };
        const auto ranks = [](const Finding* f) { return f ? numberCell(f->ranks) : std::string(); };
        const auto stake = [](const Finding* f) { return f ? Cell{f->timeAtStakeUs} : Cell{}; };
        table.addRow({std::string(toString(r.change)), r.subject, severity(r.control), severity(r.test), ranks(r.control),
                      ranks(r.test), stake(r.control), stake(r.test), (r.test ? r.test : r.control)->title});
    }
    return table;
}

} // namespace kscope

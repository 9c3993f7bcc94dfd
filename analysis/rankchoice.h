#pragma once

#include "model/trace.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace kscope {

// The rank traces an analysis reads, by identity (RankIndex); empty = every rank. Options carry
// this and never rank numbers, since two files may claim one number. The CLI and HTA's API name
// ranks by number: Run::ranksNumbered turns numbers into a choice.
using RankChoice = std::vector<RankIndex>;

inline bool chosen(const RankChoice& choice, RankIndex rank)
{
    return choice.empty() || std::find(choice.begin(), choice.end(), rank) != choice.end();
}

// The rank traces to read in turn: those chosen, in the order asked (as HTA loops over its ranks
// argument), or every rank in run order; positions outside the run are left out (see
// positionsNotInRun).
inline std::vector<const RankTrace*> ranksToRead(const Run& run, const RankChoice& choice)
{
    std::vector<const RankTrace*> ranks;
    if (choice.empty())
        for (const RankTrace& rank : run.ranks)
            ranks.push_back(&rank);
    for (RankIndex index : choice)
        if (run.has(index))
            ranks.push_back(&run.at(index));
    return ranks;
}

// "rank position 9 is not in the run" for each chosen position the run does not have.
inline std::vector<std::string> positionsNotInRun(const Run& run, const RankChoice& choice)
{
    std::vector<std::string> notes;
    for (RankIndex index : choice)
        if (!run.has(index))
            notes.push_back("rank position " + std::to_string(index.value) + " is not in the run (it has "
                            + std::to_string(run.ranks.size()) + " rank traces)");
    return notes;
}

// One rank trace to analyse: the chosen one, or the run's first when none is chosen; null when
// the run has none or the position is outside it.
inline const RankTrace* oneRank(const Run& run, std::optional<RankIndex> choice)
{
    if (!choice)
        return run.ranks.empty() ? nullptr : &run.ranks.front();
    return run.has(*choice) ? &run.at(*choice) : nullptr;
}

// Rank numbers (HTA's ranks argument) as a choice: every rank trace claiming each number, and for a
// number no file claims a position outside the run, so that the analysis says it is missing
// instead of reading an empty choice as "every rank".
inline RankChoice choiceOfNumbers(const Run& run, const std::vector<int>& numbers)
{
    RankChoice choice;
    for (int number : numbers) {
        const std::vector<RankIndex> claiming = run.ranksNumbered({number});
        if (claiming.empty())
            choice.push_back(RankIndex{static_cast<uint32_t>(run.ranks.size())});
        choice.insert(choice.end(), claiming.begin(), claiming.end());
    }
    return choice;
}

// The CLI's --rank R (HTA's rank argument): the first rank trace claiming R, unset for R < 0 (the
// run's first). A number no file claims gives a position outside the run, which the analysis
// reports (the loader has already said which ranks it found).
inline std::optional<RankIndex> rankNumbered(const Run& run, int number)
{
    if (number < 0)
        return std::nullopt;
    const RankTrace* rank = run.findRank(number);
    return rank ? run.indexOf(*rank) : RankIndex{static_cast<uint32_t>(run.ranks.size())};
}

} // namespace kscope

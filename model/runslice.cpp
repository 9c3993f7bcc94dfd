#include "runslice.h"

#include "rankbuilder.h"

#include <algorithm>

namespace kscope {

std::shared_ptr<Run> sliceRunToStep(const Run& run, int step)
{
    auto slice = std::make_shared<Run>();
    slice->folder = run.folder;
    slice->strings = run.strings.share();  // same ids, same storage: the slice's tables need no remapping
    slice->errors = run.errors;
    slice->warnings = run.warnings;
    slice->skippedFiles = run.skippedFiles;
    slice->ranksNotLoaded = run.ranksNotLoaded;
    slice->htaCompat = run.htaCompat;
    slice->minTsNs = run.minTsNs;
    slice->filesStillLoading = run.filesStillLoading;
    slice->ranks.reserve(run.ranks.size());
    for (const RankTrace& rank : run.ranks) {
        std::vector<uint8_t> keep(rank.events.size());
        for (size_t i = 0; i < keep.size(); ++i)
            keep[i] = rank.events.step[i] == step;
        slice->ranks.push_back(copyRows(rank, keep));  // the run's stream order, minus streams without work
    }
    return slice;
}

} // namespace kscope

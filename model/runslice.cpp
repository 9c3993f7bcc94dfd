#include "runslice.h"

#include "rankbuilder.h"

#include <algorithm>

namespace kscope {

std::shared_ptr<Run> sliceRunToStep(const Run& run, int step)
{
    auto slice = std::make_shared<Run>();
    slice->folder = run.folder;
    slice->strings = run.strings.clone();  // same ids: the slice's tables need no remapping
    slice->errors = run.errors;
    slice->warnings = run.warnings;
    slice->skippedFiles = run.skippedFiles;
    slice->ranksNotLoaded = run.ranksNotLoaded;
    slice->htaCompat = run.htaCompat;
    slice->minTsNs = run.minTsNs;
    slice->ranks.reserve(run.ranks.size());
    for (const RankTrace& rank : run.ranks) {
        std::vector<uint8_t> keep(rank.events.size());
        for (size_t i = 0; i < keep.size(); ++i)
            keep[i] = rank.events.step[i] == step;
        RankTrace copy = rank;
        keepRows(copy, keep);
        // Rows with file positions (HTA's mode) make keepRows recount the streams' order from what
        // is left; a step keeps the run's order, minus the streams it has no work on.
        copy.streamsInFileOrder = rank.streamsInFileOrder;
        std::erase_if(copy.streamsInFileOrder, [&copy](int32_t stream) {
            return std::find(copy.events.stream.begin(), copy.events.stream.end(), stream) == copy.events.stream.end();
        });
        slice->ranks.push_back(std::move(copy));
    }
    return slice;
}

} // namespace kscope

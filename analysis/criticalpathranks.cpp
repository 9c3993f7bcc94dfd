#include "criticalpath.h"
#include "criticalpathtables.h"

namespace kscope {

CrossRankPath criticalPathAllRanks(const Run&, const CriticalPathOptions& options)
{
    CrossRankPath result;
    result.options = options;
    result.error = "not yet";
    return result;
}

Table crossRankPathTable(const Run&, const CrossRankPath& result)
{
    Table table;
    table.columns = {"rank"};
    table.notes = result.notes;
    return table;
}

Table crossRankSharesTable(const CrossRankPath& result)
{
    Table table;
    table.columns = {"rank"};
    table.notes = result.notes;
    return table;
}

} // namespace kscope

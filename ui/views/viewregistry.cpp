#include "views/viewspec.h"

namespace kscope {

// Each view's file defines its spec; adding a view is that file plus one line here.
#define KSCOPE_VIEWS(X) \
    X(overviewViewSpec) \
    X(temporalViewSpec) \
    X(kernelBreakdownViewSpec) \
    X(kernelDistributionViewSpec) \
    X(idleViewSpec) \
    X(overlapViewSpec) \
    X(issuesViewSpec) \
    X(diffViewSpec) \
    X(launchViewSpec) \
    X(queueViewSpec) \
    X(stepsViewSpec) \
    X(patternsViewSpec) \
    X(collectivesViewSpec) \
    X(operatorsViewSpec) \
    X(criticalPathViewSpec) \
    X(eventsViewSpec) \
    X(memoryViewSpec)

#define KSCOPE_DECLARE_VIEW(name) ViewSpec name();
KSCOPE_VIEWS(KSCOPE_DECLARE_VIEW)
#undef KSCOPE_DECLARE_VIEW

const std::vector<ViewSpec>& viewRegistry()
{
#define KSCOPE_LIST_VIEW(name) name(),
    static const std::vector<ViewSpec> views{KSCOPE_VIEWS(KSCOPE_LIST_VIEW)};
#undef KSCOPE_LIST_VIEW
    return views;
}

const ViewSpec* findViewSpec(const QString& id)
{
    for (const ViewSpec& spec : viewRegistry())
        if (spec.id == id)
            return &spec;
    return nullptr;
}

} // namespace kscope

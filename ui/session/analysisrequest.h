#pragma once

// Typed requests for the session's result cache. A view (or, later, the findings engine) asks for
// an analysis by its function and its options struct; the key is the analysis's name, its result
// type and every field of the options (optionsKey()), never written by hand beside them, so no
// option can be left out of it; and the result comes back as its own type, checked.

#include "analysis/optionskey.h"

#include <QString>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace kscope {

struct Run;

// A result as the session caches it: one analysis's value of any type, with its type kept.
class CachedResult {
public:
    virtual ~CachedResult() = default;
    virtual const std::type_info& type() const = 0;
};

template <typename Result>
class CachedValue final : public CachedResult {
public:
    explicit CachedValue(Result value) : m_value(std::move(value)) {}
    const std::type_info& type() const override { return typeid(Result); }
    const Result& value() const { return m_value; }

private:
    Result m_value;
};

using CachedResultPtr = std::shared_ptr<const CachedResult>;

// The result inside a cached entry, sharing its ownership; null when there is none. A result of
// another type is a defect (two analyses under one key), reported, never cast blindly.
template <typename Result>
std::shared_ptr<const Result> resultAs(const CachedResultPtr& cached)
{
    if (!cached)
        return nullptr;
    const auto* typed = dynamic_cast<const CachedValue<Result>*>(cached.get());
    if (!typed)
        throw std::logic_error(std::string("cached result is a ") + cached->type().name() + ", not a " +
                               typeid(Result).name());
    return std::shared_ptr<const Result>(cached, &typed->value());
}

// What the session runs: the key and how to compute the value, from the slice the views show
// (compute) or from both runs of a comparison (compare). Built only by analysisRequest() and
// comparisonRequest(), so the key always matches what is computed.
struct AnalysisRequest {
    QString key;
    std::function<CachedResultPtr(const Run&)> compute;
    std::function<CachedResultPtr(const Run& control, const Run& test)> compare = {};
};

// A request that knows its result type: what views keep to ask for a result and to read it back.
template <typename Result>
struct Request {
    AnalysisRequest erased;
    const QString& key() const { return erased.key; }
    operator AnalysisRequest() const { return erased; }  // NOLINT: what the session runs
};

// The options of an analysis that has none (the run summary).
struct NoOptions {};

namespace request_detail {

template <typename Options>
QString keyOf(std::string_view analysis, const std::type_info& result, const Options& options)
{
    return QString::fromUtf8(analysis.data(), qsizetype(analysis.size())) + QLatin1Char('|') +
           QString::fromUtf8(result.name()) + QLatin1Char('|') + QString::fromStdString(optionsKey(options));
}

} // namespace request_detail

// The analysis `analysis` ("idle") of the shown slice: fn(run, options). Everything fn reads
// besides the run must be in options.
template <typename Options, typename Fn>
auto analysisRequest(std::string_view analysis, Options options, Fn fn)
    -> Request<std::remove_cvref_t<std::invoke_result_t<Fn, const Run&, const Options&>>>
{
    using Result = std::remove_cvref_t<std::invoke_result_t<Fn, const Run&, const Options&>>;
    Request<Result> request;
    request.erased.key = request_detail::keyOf(analysis, typeid(Result), options);
    request.erased.compute = [options = std::move(options), fn = std::move(fn)](const Run& run) -> CachedResultPtr {
        return std::make_shared<const CachedValue<Result>>(fn(run, options));
    };
    return request;
}

// A two-run analysis of the comparison, whole: fn(control, test, options).
template <typename Options, typename Fn>
auto comparisonRequest(std::string_view analysis, Options options, Fn fn)
    -> Request<std::remove_cvref_t<std::invoke_result_t<Fn, const Run&, const Run&, const Options&>>>
{
    using Result = std::remove_cvref_t<std::invoke_result_t<Fn, const Run&, const Run&, const Options&>>;
    Request<Result> request;
    request.erased.key = QStringLiteral("cmp|") + request_detail::keyOf(analysis, typeid(Result), options);
    request.erased.compare = [options = std::move(options), fn = std::move(fn)](const Run& control,
                                                                                const Run& test) -> CachedResultPtr {
        return std::make_shared<const CachedValue<Result>>(fn(control, test, options));
    };
    return request;
}

} // namespace kscope

// Mappers that misbehave on purpose, to test how campaigns survive crashing and hanging workers.
//
// `debug.abort` aborts the process (a crashing worker); `debug.sleep` sleeps for MapperOptions::time_limit seconds
// and then returns a one-processor mapping (a hanging worker when the campaign's per-run limit is shorter).
#include "mappers/mapper.hpp"
#include "model/analytic.hpp"

#include <chrono>
#include <cstdlib>
#include <thread>

namespace pipesim {

namespace {
class DebugMapper : public Mapper {
public:
  explicit DebugMapper(bool abort) : abort_(abort) {}
  std::string name() const override { return abort_ ? "debug.abort" : "debug.sleep"; }
  std::string description() const override
  {
    return abort_ ? "testing aid: aborts the worker process" : "testing aid: sleeps for mapper_options.time_limit";
  }
  std::optional<std::string> refuses(const Problem&) const override { return std::nullopt; }
  MapperResult map(const Problem& problem, const MapperOptions& options) const override
  {
    if (abort_) std::abort();
    std::this_thread::sleep_for(std::chrono::duration<double>(options.time_limit));
    MapperResult r;
    r.mapping   = make_interval_mapping({{1, problem.pipeline.n()}}, {0});
    r.objective = br07_eq2_period(problem.pipeline, problem.platform, r.mapping);
    return r;
  }

private:
  bool abort_;
};

const MapperRegistration abort_registration("debug.abort", [] { return std::make_unique<DebugMapper>(true); });
const MapperRegistration sleep_registration("debug.sleep", [] { return std::make_unique<DebugMapper>(false); });
} // namespace

} // namespace pipesim

// Mappers that misbehave on purpose, to test how campaigns survive crashing and hanging workers (test-only).
#include "mappers/debug/debug_mappers_fixtures.hpp"

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
  MapperInfo info() const override
  {
    MapperInfo info;
    info.name = abort_ ? "debug.abort" : "debug.sleep";
    info.description =
        abort_ ? "testing aid: aborts the worker process" : "testing aid: sleeps for mapper_options.time_limit";
    info.paper      = Paper::pipesim;
    info.family     = MapperFamily::testing;
    info.objective  = MapperObjective::none;
    info.mapping    = MappingRule::interval;
    info.complexity = abort_ ? "O(1)" : "time_limit seconds";
    return info;
  }
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
} // namespace

void register_debug_mappers()
{
  MapperRegistry& registry = MapperRegistry::instance();
  for (bool abort : {true, false})
    if (not registry.find(DebugMapper(abort).name()))
      registry.add([abort] { return std::make_unique<DebugMapper>(abort); });
}

} // namespace pipesim

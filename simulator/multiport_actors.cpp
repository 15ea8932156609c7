// Multi-port actors: receive, compute and send overlap through bounded buffers; cards and links are shared.
#include "simulator/multiport_actors.hpp"

#include "model/allotment.hpp"
#include "model/oneport_plan.hpp"
#include "platforms/input_error.hpp"

#include <cmath>
#include <deque>
#include <fmt/format.h>
#include <map>
#include <simgrid/s4u.hpp>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace {
/// A bounded FIFO of data set indices between two actors of one processor.
struct Buffer {
  std::deque<int> items;
  sg4::SemaphorePtr free;
  sg4::SemaphorePtr filled;
  explicit Buffer(int capacity)
      : free(sg4::Semaphore::create(static_cast<unsigned>(capacity))), filled(sg4::Semaphore::create(0))
  {
  }
  void push(int k)
  {
    free->acquire();
    items.push_back(k);
    filled->release();
  }
  int pop()
  {
    filled->acquire();
    int k = items.front();
    items.pop_front();
    free->release();
    return k;
  }
};

/// Interval j on processor u: where its input comes from and where its output goes.
struct Station {
  int interval    = 0;
  int processor   = 0;
  int in_transfer = -1;           // -1: the input is computed locally (u holds I_{j-1})
  std::vector<int> out_transfers; // when u is the elected replica of I_j
  std::unique_ptr<Buffer> input;  // received (or locally produced) data sets
  std::unique_ptr<Buffer> output; // computed data sets waiting for the sender
  Buffer* next_local = nullptr;   // input buffer of (j+1, u) when u holds I_{j+1}
  std::size_t usage  = 0;         // index in State::usage
};
} // namespace

struct MultiPortDeployment::State {
  Pipeline pipeline;
  Platform platform;
  Mapping mapping;
  SimulationSettings settings;
  double size_scale = 1;
  OnePortPlan plan;
  std::vector<double> rates; // per transfer, bytes/s after scaling (allotted); < 0: uncapped
  std::vector<std::unique_ptr<Station>> stations;
  std::vector<int> ids;
  std::vector<sg4::Mailbox*> mailboxes;
  std::vector<double> output_times;
  std::vector<ProcessorUsage> usage;
  std::vector<TraceEvent> trace;

  sg4::Host* host(int node) const
  {
    sg4::Host* h = sg4::Host::by_name_or_null(platform.node_name(node));
    if (h == nullptr)
      throw InputError(fmt::format("simulation: host '{}' is not in the SimGrid platform", platform.node_name(node)));
    return h;
  }
  sg4::CommPtr start_send(int transfer, int k)
  {
    double bytes   = plan.transfers[static_cast<std::size_t>(transfer)].bytes * size_scale;
    sg4::CommPtr c = mailboxes[static_cast<std::size_t>(transfer)]->put_init(
        &ids[static_cast<std::size_t>(k)], static_cast<std::uint64_t>(std::llround(bytes)));
    if (rates[static_cast<std::size_t>(transfer)] > 0) c->set_rate(rates[static_cast<std::size_t>(transfer)]);
    c->start();
    return c;
  }
  void record(const Station& s, const char* kind, int k, double start)
  {
    double end        = sg4::Engine::get_clock();
    ProcessorUsage& u = usage[s.usage];
    (kind[0] == 'c' ? u.compute : kind[0] == 's' ? u.send : u.receive) += end - start;
    if (settings.record_trace) trace.push_back(TraceEvent{u.host, kind, k, s.interval, start, end});
  }
  void receive(Station& s);
  void compute(Station& s);
  void send(Station& s);
  void input();
  void output();
};

void MultiPortDeployment::State::receive(Station& s)
{
  sg4::Mailbox* mb = mailboxes[static_cast<std::size_t>(s.in_transfer)];
  for (int k = 0; k < settings.datasets; ++k) {
    s.input->free->acquire(); // a slot for the data set being received
    int* data      = nullptr;
    sg4::CommPtr c = mb->get_init()->set_dst_data(reinterpret_cast<void**>(&data), sizeof(void*));
    // the rate cap goes on both sides: SimGrid keeps the settings of whichever side created the communication
    if (double rate = rates[static_cast<std::size_t>(s.in_transfer)]; rate > 0) c->set_rate(rate);
    c->start();
    c->wait();
    record(s, "receive", k, c->get_start_time());
    if (data == nullptr || *data != k)
      throw std::logic_error(fmt::format("multi-port receiver: expected data set {}, got {}", k, data ? *data : -1));
    s.input->items.push_back(k);
    s.input->filled->release();
  }
}

void MultiPortDeployment::State::compute(Station& s)
{
  const Interval& in = mapping.interval(s.interval);
  double flops       = pipeline.work(in.first, in.last);
  for (int k = 0; k < settings.datasets; ++k) {
    s.input->pop();
    double start = sg4::Engine::get_clock();
    sg4::this_actor::execute(flops); // intervals on one processor share its CPU
    record(s, "compute", k, start);
    if (s.output) s.output->push(k);
    if (s.next_local) s.next_local->push(k);
  }
}

void MultiPortDeployment::State::send(Station& s)
{
  for (int k = 0; k < settings.datasets; ++k) {
    s.output->pop();
    double start = sg4::Engine::get_clock();
    std::vector<sg4::CommPtr> comms;
    for (int t : s.out_transfers)
      comms.push_back(start_send(t, k)); // every successor at once: the card and links are shared
    sg4::Comm::wait_all(comms);
    record(s, "send", k, start);
  }
}

void MultiPortDeployment::State::input()
{
  // as in the one-port model: data set k to every replica of I_1 at once, k+1 once all have taken k
  for (int k = 0; k < settings.datasets; ++k) {
    std::vector<sg4::CommPtr> comms;
    for (int t : plan.from_in)
      comms.push_back(start_send(t, k));
    sg4::Comm::wait_all(comms);
  }
}

void MultiPortDeployment::State::output()
{
  sg4::Mailbox* mb = mailboxes[static_cast<std::size_t>(plan.to_out)];
  for (int k = 0; k < settings.datasets; ++k) {
    const int* data = mb->get<int>();
    if (*data != k) throw std::logic_error(fmt::format("P_out: expected data set {}, got {}", k, *data));
    output_times.push_back(sg4::Engine::get_clock());
  }
}

MultiPortDeployment::MultiPortDeployment(const Pipeline& pipeline, const Platform& platform, const Mapping& mapping,
                                         const SimulationSettings& settings, double size_scale)
    : state_(std::make_unique<State>())
{
  State& s     = *state_;
  s.pipeline   = pipeline;
  s.platform   = platform;
  s.mapping    = mapping;
  s.settings   = settings;
  s.size_scale = size_scale;
  s.plan       = plan_oneport(pipeline, mapping, platform.in(), platform.out());
  if (settings.buffer < 1)
    throw InputError(fmt::format("simulation.buffer = {}: at least one data set", settings.buffer));
  auto times = allotted_transfer_times(s.plan, platform);
  for (std::size_t t = 0; t < s.plan.transfers.size(); ++t) {
    double bytes = s.plan.transfers[t].bytes * size_scale;
    s.rates.push_back(settings.allocation == "allotted" && times[t] > 0 ? bytes / times[t] : -1.0);
  }
  for (int k = 0; k < settings.datasets; ++k)
    s.ids.push_back(k);
}

MultiPortDeployment::~MultiPortDeployment() = default;

void MultiPortDeployment::deploy()
{
  State& s = *state_;
  for (std::size_t t = 0; t < s.plan.transfers.size(); ++t)
    s.mailboxes.push_back(sg4::Mailbox::by_name(fmt::format("pipesim-transfer-{}", t)));
  std::map<std::pair<int, int>, Station*> by_key; // (interval, processor)
  std::map<int, std::size_t> usage_of;
  for (int j = 0; j < s.mapping.m(); ++j)
    for (const auto& group : s.mapping.interval(j).replicas) {
      auto st       = std::make_unique<Station>();
      st->interval  = j;
      st->processor = group.front();
      st->input     = std::make_unique<Buffer>(s.settings.buffer);
      bool elected  = s.mapping.interval(j).replicas.front().front() == st->processor;
      if (elected) st->output = std::make_unique<Buffer>(s.settings.buffer);
      auto [it, inserted] = usage_of.emplace(st->processor, s.usage.size());
      if (inserted) s.usage.push_back(ProcessorUsage{s.platform.node_name(st->processor), 0, 0, 0});
      st->usage                  = it->second;
      by_key[{j, st->processor}] = st.get();
      s.stations.push_back(std::move(st));
    }
  for (std::size_t t = 0; t < s.plan.transfers.size(); ++t) {
    const auto& tr = s.plan.transfers[t];
    if (tr.interval < s.mapping.m()) by_key.at({tr.interval, tr.to})->in_transfer = static_cast<int>(t);
    if (tr.interval > 0) by_key.at({tr.interval - 1, tr.from})->out_transfers.push_back(static_cast<int>(t));
  }
  for (auto& st : s.stations)
    if (auto next = by_key.find({st->interval + 1, st->processor});
        next != by_key.end() && next->second->in_transfer < 0)
      st->next_local = next->second->input.get();
  State* self = state_.get();
  for (auto& st : s.stations) {
    Station* p  = st.get();
    auto* h     = s.host(p->processor);
    auto prefix = fmt::format("{}:I{}", s.platform.node_name(p->processor), p->interval + 1);
    if (p->in_transfer >= 0) sg4::Actor::create(prefix + ":receive", h, [self, p] { self->receive(*p); });
    sg4::Actor::create(prefix + ":compute", h, [self, p] { self->compute(*p); });
    if (p->output) sg4::Actor::create(prefix + ":send", h, [self, p] { self->send(*p); });
  }
  sg4::Actor::create("P_in", s.host(s.platform.in()), [self] { self->input(); });
  sg4::Actor::create("P_out", s.host(s.platform.out()), [self] { self->output(); });
}

SimulationResult MultiPortDeployment::result() const
{
  const State& s = *state_;
  if (static_cast<int>(s.output_times.size()) != s.settings.datasets)
    throw std::runtime_error(
        fmt::format("simulation ended with {} of {} data sets delivered", s.output_times.size(), s.settings.datasets));
  SimulationResult r;
  r.output_times = s.output_times;
  r.period       = measured_period(s.output_times, s.settings.effective_warmup(), s.settings.effective_cooldown());
  r.makespan     = s.output_times.empty() ? 0 : s.output_times.back();
  r.usage        = s.usage;
  for (auto& u : r.usage)
    if (r.makespan > 0) {
      u.compute /= r.makespan;
      u.send /= r.makespan;
      u.receive /= r.makespan;
    }
  r.trace   = s.trace;
  r.network = to_string(s.settings.network);
  return r;
}

} // namespace pipesim

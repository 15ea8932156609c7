// Reachable tangible markings of an event graph with exponential and zero firing times.
#include "model/marking_chain.hpp"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <limits>
#include <optional>

namespace pipesim {

namespace {

/// Beyond this many transitions the markings are far more than any accepted state count (each processor of a
/// one-port line alone contributes a factor of about 2): the bounds are not even computed.
constexpr std::size_t max_transitions = 1000;

bool reaches_all(std::size_t n, const std::vector<std::vector<int>>& next)
{
  std::vector<char> seen(n, 0);
  std::vector<int> stack{0};
  seen[0]           = 1;
  std::size_t count = 1;
  while (!stack.empty()) {
    int v = stack.back();
    stack.pop_back();
    for (int w : next[static_cast<std::size_t>(v)])
      if (!seen[static_cast<std::size_t>(w)]) {
        seen[static_cast<std::size_t>(w)] = 1;
        ++count;
        stack.push_back(w);
      }
  }
  return count == n;
}

/// Per place from -> to: its tokens plus the fewest tokens on a path to -> from (the token count of every cycle
/// through a place is invariant, so this bounds the place in every reachable marking). Dijkstra per source.
std::vector<int> place_bounds(const EventGraph& g)
{
  const std::size_t n = g.transitions.size();
  std::vector<std::vector<std::pair<int, int>>> next(n);
  for (const auto& p : g.places)
    next[static_cast<std::size_t>(p.from)].push_back({p.to, p.tokens});
  std::vector<std::vector<int>> dist(n);
  auto from = [&](int source) -> const std::vector<int>& {
    auto& d = dist[static_cast<std::size_t>(source)];
    if (!d.empty()) return d;
    d.assign(n, std::numeric_limits<int>::max());
    std::deque<std::pair<int, int>> queue{{0, source}}; // small weights: a sorted deque is a fine priority queue
    d[static_cast<std::size_t>(source)] = 0;
    while (!queue.empty()) {
      auto [du, u] = queue.front();
      queue.pop_front();
      if (du > d[static_cast<std::size_t>(u)]) continue;
      for (auto [v, w] : next[static_cast<std::size_t>(u)])
        if (du + w < d[static_cast<std::size_t>(v)]) {
          d[static_cast<std::size_t>(v)] = du + w;
          auto at                        = std::upper_bound(queue.begin(), queue.end(), std::pair{du + w, v});
          queue.insert(at, {du + w, v});
        }
    }
    return d;
  };
  std::vector<int> bounds;
  for (const auto& p : g.places)
    bounds.push_back(p.tokens + from(p.to)[static_cast<std::size_t>(p.from)]);
  return bounds;
}

/// Packs a marking into words, each place in the bits of its bound (fields never straddle two words).
struct Packing {
  struct Field {
    int word      = 0;
    int shift     = 0;
    uint64_t mask = 0;
  };
  std::vector<Field> fields;
  int words = 1;
  int bits  = 0;

  explicit Packing(const std::vector<int>& bounds)
  {
    int used = 0;
    for (int b : bounds) {
      int width = 0;
      while ((1LL << width) <= b)
        ++width;
      if (used + width > 64) {
        ++words;
        used = 0;
      }
      fields.push_back({words - 1, used, width == 64 ? ~0ULL : (1ULL << width) - 1});
      used += width;
      bits += width;
    }
  }
  void encode(const std::vector<int>& m, uint64_t* out) const
  {
    std::fill(out, out + words, 0ULL);
    for (std::size_t p = 0; p < fields.size(); ++p)
      out[fields[p].word] |= static_cast<uint64_t>(m[p]) << fields[p].shift;
  }
  void decode(const uint64_t* in, std::vector<int>& m) const
  {
    for (std::size_t p = 0; p < fields.size(); ++p)
      m[p] = static_cast<int>((in[fields[p].word] >> fields[p].shift) & fields[p].mask);
  }
};

/// Open-addressing set of packed markings (stored once, in state order), giving each its state number.
class StateTable {
public:
  explicit StateTable(int words) : words_(static_cast<std::size_t>(words)) { slots_.assign(1024, -1); }
  /// The state number of `key`, adding it if new; `added` says which.
  int find_or_add(const uint64_t* key, bool& added)
  {
    if (2 * (count() + 1) > slots_.size()) grow();
    std::size_t i = hash(key) & (slots_.size() - 1);
    for (;; i = (i + 1) & (slots_.size() - 1)) {
      int s = slots_[i];
      if (s < 0) break;
      if (std::equal(key, key + words_, &keys_[static_cast<std::size_t>(s) * words_])) {
        added = false;
        return s;
      }
    }
    slots_[i] = static_cast<int>(count());
    keys_.insert(keys_.end(), key, key + words_);
    added = true;
    return slots_[i];
  }
  std::size_t count() const { return keys_.size() / words_; }
  const uint64_t* key(int s) const { return &keys_[static_cast<std::size_t>(s) * words_]; }

private:
  std::size_t hash(const uint64_t* key) const
  {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (std::size_t w = 0; w < words_; ++w) {
      h ^= key[w];
      h *= 0xbf58476d1ce4e5b9ULL;
      h ^= h >> 31;
    }
    return static_cast<std::size_t>(h);
  }
  void grow()
  {
    slots_.assign(2 * slots_.size(), -1);
    for (std::size_t s = 0; s < count(); ++s) {
      std::size_t i = hash(key(static_cast<int>(s))) & (slots_.size() - 1);
      while (slots_[i] >= 0)
        i = (i + 1) & (slots_.size() - 1);
      slots_[i] = static_cast<int>(s);
    }
  }
  std::size_t words_;
  std::vector<uint64_t> keys_;
  std::vector<int> slots_;
};

/// Firing rules of the graph: input and output places per transition, the consumer of each place.
struct Net {
  std::vector<std::vector<int>> in, out; // places
  std::vector<int> consumer;             // per place
  std::vector<char> timed;               // duration > 0
  explicit Net(const EventGraph& g) : in(g.transitions.size()), out(g.transitions.size())
  {
    for (std::size_t p = 0; p < g.places.size(); ++p) {
      in[static_cast<std::size_t>(g.places[p].to)].push_back(static_cast<int>(p));
      out[static_cast<std::size_t>(g.places[p].from)].push_back(static_cast<int>(p));
      consumer.push_back(g.places[p].to);
    }
    for (const auto& t : g.transitions)
      timed.push_back(t.duration > 0 ? 1 : 0);
  }
  bool enabled(int t, const std::vector<int>& m) const
  {
    for (int p : in[static_cast<std::size_t>(t)])
      if (m[static_cast<std::size_t>(p)] == 0) return false;
    return true;
  }
  void fire(int t, std::vector<int>& m) const
  {
    for (int p : in[static_cast<std::size_t>(t)])
      --m[static_cast<std::size_t>(p)];
    for (int p : out[static_cast<std::size_t>(t)])
      ++m[static_cast<std::size_t>(p)];
  }
  /// Fires zero-time transitions until none is enabled, starting from the consumers of `from`'s output places (of
  /// every place when from < 0).
  void close(int from, std::vector<int>& m, std::vector<int>& work) const
  {
    work.clear();
    if (from < 0)
      for (std::size_t t = 0; t < in.size(); ++t)
        work.push_back(static_cast<int>(t));
    else
      for (int p : out[static_cast<std::size_t>(from)])
        work.push_back(consumer[static_cast<std::size_t>(p)]);
    while (!work.empty()) {
      int t = work.back();
      work.pop_back();
      if (timed[static_cast<std::size_t>(t)] || !enabled(t, m)) continue;
      fire(t, m);
      work.push_back(t);
      for (int p : out[static_cast<std::size_t>(t)])
        work.push_back(consumer[static_cast<std::size_t>(p)]);
    }
  }
};

std::optional<std::string> unsupported(const EventGraph& g)
{
  const std::size_t n = g.transitions.size();
  if (n == 0) return "the event graph is empty";
  if (n > max_transitions)
    return fmt::format("{} transitions (at most {}): the reachable markings would number far beyond any accepted "
                       "state count",
                       n, max_transitions);
  for (const auto& t : g.transitions)
    if (!(t.duration >= 0) || !std::isfinite(t.duration))
      return fmt::format("transition {} lasts {}: expected a finite duration >= 0", t.label, t.duration);
  if (!token_free_cycle(g).empty()) return "the event graph has a cycle without tokens (deadlock)";
  if (!strongly_connected(g))
    return "the event graph is not strongly connected: tokens can pile up between its parts (infinitely many markings)";
  return std::nullopt;
}

} // namespace

bool strongly_connected(const EventGraph& g)
{
  const std::size_t n = g.transitions.size();
  if (n == 0) return true;
  std::vector<std::vector<int>> next(n), back(n);
  for (const auto& p : g.places) {
    next[static_cast<std::size_t>(p.from)].push_back(p.to);
    back[static_cast<std::size_t>(p.to)].push_back(p.from);
  }
  return reaches_all(n, next) && reaches_all(n, back);
}

MarkingChain explore_markings(const EventGraph& g, long long max_states)
{
  MarkingChain chain;
  if (auto why = unsupported(g)) {
    chain.reason = *why;
    return chain;
  }
  for (const auto& t : g.transitions)
    chain.rate.push_back(t.duration > 0 ? 1.0 / t.duration : 0.0);
  const Net net(g);
  const Packing packing(place_bounds(g));
  chain.bits = packing.bits;
  StateTable table(packing.words);
  std::vector<int> m(g.places.size()), next(g.places.size()), work;
  std::vector<uint64_t> key(static_cast<std::size_t>(packing.words));
  for (std::size_t p = 0; p < g.places.size(); ++p)
    m[p] = g.places[p].tokens;
  net.close(-1, m, work);
  packing.encode(m, key.data());
  bool added = false;
  table.find_or_add(key.data(), added);
  chain.out_begin.push_back(0);
  for (std::size_t s = 0; s < table.count(); ++s) {
    packing.decode(table.key(static_cast<int>(s)), m);
    for (std::size_t t = 0; t < g.transitions.size(); ++t) {
      if (!net.timed[t] || !net.enabled(static_cast<int>(t), m)) continue;
      next = m;
      net.fire(static_cast<int>(t), next);
      net.close(static_cast<int>(t), next, work);
      packing.encode(next, key.data());
      int target = table.find_or_add(key.data(), added);
      if (static_cast<long long>(table.count()) > max_states) {
        chain.states = static_cast<long long>(table.count());
        chain.reason = fmt::format("more than {} reachable markings (the limit)", max_states);
        return chain;
      }
      chain.target.push_back(target);
      chain.transition.push_back(static_cast<int>(t));
    }
    chain.out_begin.push_back(static_cast<long long>(chain.target.size()));
  }
  chain.states   = static_cast<long long>(table.count());
  chain.complete = true;
  return chain;
}

} // namespace pipesim

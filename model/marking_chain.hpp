// The continuous-time Markov chain of an event graph whose transitions fire after independent exponential times:
// its states are the reachable markings (Benoit, Gallet, Gaujal, Robert, Algorithmica 69(4) 2014, §4), built here
// for model/exponential_period.hpp.
//
// Semantics: a transition with mean duration d > 0 is enabled when each of its input places holds a token and fires
// at rate 1/d, moving one token from each input place to each output place; in an event graph each place has one
// consumer, so an enabled transition stays enabled until it fires (no conflicts), and with memoryless durations this
// is the max-plus execution of model/maxplus.hpp (tokens held while firing are consumed by no one else). A transition
// of duration 0 (a zero-size transfer, a multi-port hand-over) fires as soon as it is enabled: the chain's states are
// the markings where none is enabled ("tangible"; the order of zero-time firings does not matter in a persistent net,
// Keller 1974). Every transition of pipesim's graphs lies on a cycle with one token (a processor's program), so none
// fires twice at once.
// Accepts: strongly connected graphs without token-free cycles (otherwise the chain is infinite or has no states: a
// reason is returned). Complexity: O(S (T_timed + P)) to explore S states with P places (a marking is decoded, each
// enabled transition fired and its zero-time closure encoded), hash lookups on the packed markings (each place gets
// the bits of its bound: the fewest tokens on a cycle through it). Memory: S packed markings (P bits each, rounded up
// to 64-bit words) and one edge per enabled timed transition.
#pragma once

#include "model/event_graph.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pipesim {

struct MarkingChain {
  bool complete = false; // false: `reason` says why (too many states, not strongly connected, deadlock, ...)
  std::string reason;
  long long states = 0;             // tangible reachable markings (explored so far when stopped at the limit)
  std::vector<long long> out_begin; // edges of state s: [out_begin[s], out_begin[s + 1])
  std::vector<int> target;          // per edge: the state reached (may be s itself: a transition that fires a round)
  std::vector<int> transition;      // per edge: the timed transition that fired
  std::vector<double> rate;         // per transition: 1 / duration (0 for zero-time transitions)
  int bits = 0;                     // of a packed marking
};

/// Explores the markings reachable from the graph's initial marking, state 0 being its zero-time closure, in
/// breadth-first order; stops with `complete = false` beyond `max_states` states.
MarkingChain explore_markings(const EventGraph& graph, long long max_states);

/// The graph has a path from every transition to every other (an empty graph has).
bool strongly_connected(const EventGraph& graph);

} // namespace pipesim

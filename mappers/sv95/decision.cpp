// sv95.exact's decision procedure: the fewest processors of a mapping whose module terms are all <= T.
#include "mappers/sv95/decision.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pipesim {

namespace {
/// The largest index i in [0, end) with pred(i), for a pred true on a prefix; -1 when none.
template <class Pred>
int last_true(int end, Pred pred)
{
  int lo = 0, hi = end; // pred true on [0, lo), unknown on [lo, hi), false on [hi, end)
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (pred(mid))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo - 1;
}
} // namespace

Sv95Decision::Sv95Decision(const Sv95Tables& tables) : t_(tables)
{
  int k = t_.k(), P = t_.P();
  std::size_t stride = static_cast<std::size_t>(P) + 1;
  for (int b = 1; b <= k; ++b)
    N_.emplace_back(b < k ? stride * stride : stride, P + 1);
  for (int b = 1; b < k; ++b)
    by_next_.emplace_back(stride * stride, P + 1);
  for (int i = 1; i < k; ++i) {
    std::vector<short> order(static_cast<std::size_t>(P) * stride);
    for (int p = 1; p <= P; ++p) {
      short* senders = &order[static_cast<std::size_t>(p) * static_cast<std::size_t>(P)];
      std::iota(senders, senders + P, short{1});
      std::stable_sort(senders, senders + P,
                       [&](short x, short y) { return t_.input(i + 1, x, p) < t_.input(i + 1, y, p); });
    }
    order_.push_back(std::move(order));
  }
  need_.resize(static_cast<std::size_t>(k) * static_cast<std::size_t>(k) * stride);
  next_need_.resize(static_cast<std::size_t>(k) * stride);
}

int Sv95Decision::r_min(double f, double T) const
{
  int P = t_.P();
  if (f <= T) return 1;
  if (not(T > 0) || not std::isfinite(f)) return P + 1;
  // ceil(f / T) rounded may be one off either way: settle on the smallest r with f / r <= T exactly
  int r = static_cast<int>(std::min(std::ceil(f / T), static_cast<double>(P + 1)));
  while (r > 1 && f / (r - 1) <= T)
    --r;
  while (r <= P && f / r > T)
    ++r;
  return r;
}

bool Sv95Decision::bounds(double T)
{
  int k = t_.k(), P = t_.P();
  std::size_t stride = static_cast<std::size_t>(P) + 1;
  std::vector<int> cheapest(static_cast<std::size_t>(k) * static_cast<std::size_t>(k), P + 1);
  for (int a = 1; a <= k; ++a)
    for (int b = a; b <= k; ++b) {
      std::size_t pair = static_cast<std::size_t>(a - 1) * static_cast<std::size_t>(k) + (b - 1);
      int* need        = &need_[pair * stride];
      std::fill(need, need + stride, P + 1);
      for (int p = t_.p_min(a, b); p <= P; ++p) {
        double E       = t_.exec(a, b, p);
        int r          = t_.replicable(a, b) ? r_min(E, T) : (E <= T ? 1 : P + 1);
        need[p]        = r > P ? P + 1 : std::min(P + 1, p * r);
        cheapest[pair] = std::min(cheapest[pair], need[p]);
      }
    }
  auto cheap = [&](int a, int b) { return cheapest[static_cast<std::size_t>(a - 1) * k + (b - 1)]; };
  before_.assign(static_cast<std::size_t>(k) + 2, P + 1);
  before_[1] = 0;
  for (int b = 1; b <= k; ++b)
    for (int a = 1; a <= b; ++a)
      before_[b + 1] = std::min(before_[b + 1], before_[a] + cheap(a, b));
  if (before_[k + 1] > P) return false;
  after_.assign(static_cast<std::size_t>(k) + 1, P + 1);
  after_[k] = 0;
  for (int a = k; a >= 1; --a)
    for (int b = a; b <= k; ++b)
      after_[a - 1] = std::min(after_[a - 1], after_[b] + cheap(a, b));
  for (int b = 1; b < k; ++b)
    for (int q = 0; q <= P; ++q) {
      int best = P + 1;
      for (int c = b + 1; c <= k; ++c)
        best = std::min(best, need_[(static_cast<std::size_t>(b) * k + (c - 1)) * stride + q] + after_[c]);
      next_need_[static_cast<std::size_t>(b) * stride + q] = best;
    }
  return true;
}

void Sv95Decision::build_front(int a, int p, double E)
{
  int P = t_.P();
  front_.clear();
  if (a == 1) {
    front_.emplace_back(t_.input(1, 0, p) + E, 0);
    return;
  }
  std::size_t stride   = static_cast<std::size_t>(P) + 1;
  const short* senders = &order_[a - 2][static_cast<std::size_t>(p) * static_cast<std::size_t>(P)];
  const int* prev      = &by_next_[a - 2][static_cast<std::size_t>(p) * stride]; // N_{a-1}(., p)
  int smallest         = P + 1;
  double last_x        = -1;
  for (int rank = 0; rank < P; ++rank) {
    int ps = senders[rank];
    int n  = prev[ps];
    if (n >= smallest) continue;
    double x = t_.input(a, ps, p);
    if (not std::isfinite(x)) break; // sorted: the rest is infinite too
    if (not front_.empty() && x == last_x) front_.pop_back();
    front_.emplace_back(x + E, n); // (receive + exec), as module_response adds them
    smallest = n;
    last_x   = x;
  }
}

int Sv95Decision::fewest(double T, bool replicable, int p, double y) const
{
  int P  = t_.P();
  int m  = static_cast<int>(front_.size());
  auto f = [&](int i) { return front_[i].first + y; };
  if (not replicable) {
    int i = last_true(m, [&](int x) { return f(x) <= T; });
    return i >= 0 ? front_[i].second + p : P + 1;
  }
  int i    = m - 1;
  int r    = r_min(f(i), T);
  int best = r <= P ? front_[i].second + p * r : P + 1;
  while (r > 1) { // the last point reaching r - 1 instances or fewer
    int target = std::min(r - 1, P);
    int j      = last_true(i, [&](int x) { return f(x) / target <= T; });
    if (j < 0) break;
    r    = r_min(f(j), T);
    best = std::min(best, front_[j].second + p * r);
    if (front_[j].second + p >= best) break; // earlier points have larger N
    i = j;
  }
  return best;
}

void Sv95Decision::add_modules_ending_at(double T, int b)
{
  int k = t_.k(), P = t_.P();
  std::size_t stride = static_cast<std::size_t>(P) + 1;
  int cap            = P - after_[b]; // processors t_1..t_b may use
  auto& dst          = N_[b - 1];
  for (int a = 1; a <= b; ++a) {
    const int* need = &need_[(static_cast<std::size_t>(a - 1) * k + (b - 1)) * stride];
    bool replicable = t_.replicable(a, b);
    for (int p = t_.p_min(a, b); p <= P; ++p) {
      if (before_[a] + need[p] > cap) continue;
      double E = t_.exec(a, b, p);
      build_front(a, p, E);
      if (front_.empty() || front_.back().second + need[p] > cap) continue;
      if (b == k) {
        int n = fewest(T, replicable, p, t_.output(b, p, 0));
        if (n <= cap) dst[p] = std::min(dst[p], n);
        continue;
      }
      const int* next_need = &next_need_[static_cast<std::size_t>(b) * stride];
      const double* out    = t_.ecom_row(b, p);
      int* cells           = &dst[static_cast<std::size_t>(p) * stride];
      int least            = front_.back().second + need[p]; // this module's state takes at least that
      for (int q = 1; q <= P; ++q) {
        if (least + next_need[q] > P) continue;
        int n = fewest(T, replicable, p, out[q]);
        if (n + next_need[q] <= P) cells[q] = std::min(cells[q], n);
      }
    }
  }
}

int Sv95Decision::solve(double T)
{
  int k = t_.k(), P = t_.P();
  std::size_t stride = static_cast<std::size_t>(P) + 1;
  if (not bounds(T)) return P + 1;
  for (auto& n : N_)
    std::fill(n.begin(), n.end(), P + 1);
  for (int b = 1; b <= k; ++b) {
    add_modules_ending_at(T, b);
    if (b == k) break;
    auto& by_next = by_next_[b - 1]; // the next modules' frontiers read N_b(., q) contiguously
    for (std::size_t p = 0; p < stride; ++p)
      for (std::size_t q = 0; q < stride; ++q)
        by_next[q * stride + p] = N_[b - 1][p * stride + q];
  }
  return *std::min_element(N_[k - 1].begin(), N_[k - 1].end());
}

std::vector<Sv95Module> Sv95Decision::modules(double T) const
{
  int k = t_.k(), P = t_.P();
  std::size_t stride = static_cast<std::size_t>(P) + 1;
  int p              = static_cast<int>(std::min_element(N_[k - 1].begin(), N_[k - 1].end()) - N_[k - 1].begin());
  int n = N_[k - 1][p], q = 0;
  std::vector<Sv95Module> modules;
  for (int b = k; b >= 1;) {
    bool found = false;
    for (int a = 1; a <= b && not found; ++a) {
      if (p < t_.p_min(a, b)) continue;
      double E = t_.exec(a, b, p);
      for (int ps = a == 1 ? 0 : 1; ps <= (a == 1 ? 0 : P) && not found; ++ps) {
        int before = a == 1 ? 0 : N_[a - 2][static_cast<std::size_t>(ps) * stride + p];
        if (before > P) continue;
        double f = (t_.input(a, ps, p) + E) + t_.output(b, p, q);
        int r    = t_.replicable(a, b) ? r_min(f, T) : (f <= T ? 1 : P + 1);
        if (r > P || before + p * r != n) continue;
        modules.insert(modules.begin(), {a, b, r, p});
        found = true;
        n     = before;
        q     = p;
        p     = ps;
        b     = a - 1;
      }
    }
    if (not found) return {}; // unreachable: n came from one of these transitions
  }
  return modules;
}

} // namespace pipesim

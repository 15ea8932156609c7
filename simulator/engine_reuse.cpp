// Several runs in one SimGrid engine: undoing what a run leaves behind.
#include "simulator/engine_reuse.hpp"

#include <dlfcn.h>
#include <malloc.h>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <stdexcept>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace pipesim::detail {

namespace {
struct UsedMailbox {
  sg4::Mailbox* mailbox;
  sg4::Host* drain_host; // where its detached messages come from, or nullptr
};

std::vector<UsedMailbox>& used_mailboxes()
{
  static std::vector<UsedMailbox> mailboxes;
  return mailboxes;
}

/// A detached message nobody received (a crash's wake-up token sent to a waiter that had stopped waiting) stays in
/// its mailbox, and SimGrid 3.32 keeps it in a list of the maestro's that only its delivery empties: cleared, it
/// would stay there for good, and every later detached message's delivery walks that growing list (runs got slower
/// batch after batch). Delivered instead, by one actor per such mailbox on the host the messages came from.
void deliver_stale_messages()
{
  bool any = false;
  for (const auto& [mailbox, host] : used_mailboxes())
    if (host != nullptr && !mailbox->empty()) {
      any = true;
      sg4::Actor::create("pipesim-drain", host, [mb = mailbox] {
        try {
          while (!mb->empty())
            mb->get<void>();
        } catch (const simgrid::Exception&) { // the rest is cleared below: at worst that list keeps an entry
        }
      });
    }
  if (any) sg4::Engine::get_instance()->run();
}

/// SimGrid 3.32 keeps the simulated date in the static member simgrid::kernel::EngineImpl::now_, exported by
/// libsimgrid but declared in a header it does not install; no API sets it. Found by its mangled name, so a SimGrid
/// without it gives nullptr (and no reuse) instead of a link error. Other versions are not trusted to keep every other
/// date relative to it: no reuse there.
double* simgrid_clock()
{
#if SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32
  static auto* clock = static_cast<double*>(::dlsym(RTLD_DEFAULT, "_ZN7simgrid6kernel10EngineImpl4now_E"));
  return clock;
#else
  return nullptr;
#endif
}
} // namespace

bool can_run_again(const Platform& platform)
{ // dated profiles (an XML's files, a scenario's platform.profiles) cannot be rewound
  return platform.xml_file().empty() && platform.profiles().empty() && simgrid_clock() != nullptr;
}

void reset_engine_for_next_run()
{
  auto* engine = sg4::Engine::get_instance();
  if (engine->get_actor_count() != 0) throw std::logic_error("engine reuse: an actor of the last run is still there");
  double* clock = simgrid_clock();
  if (clock == nullptr || *clock != sg4::Engine::get_clock())
    throw std::logic_error("engine reuse: SimGrid's clock variable is not where SimGrid 3.32 keeps it");
  for (sg4::Host* host : engine->get_all_hosts())
    if (!host->is_on()) host->turn_on();
  for (sg4::Link* link : engine->get_all_links())
    if (!link->is_on()) link->turn_on();
  deliver_stale_messages();
  for (const auto& used : used_mailboxes())
    used.mailbox->clear();
  used_mailboxes().clear();
  if (engine->get_actor_count() != 0) throw std::logic_error("engine reuse: a stale message could not be delivered");
  *clock = 0;
}

void keep_actor_stacks_in_heap()
{
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's largest (HEAP_MAX_SIZE / 2 on 64 bits)
  ::mallopt(M_TRIM_THRESHOLD, 1 << 30);  // ended actors' stacks stay for the next ones
  ::mallopt(M_TOP_PAD, 64 << 20);        // the heap grows 64 MiB at a time, not one brk per stack
}

void note_mailbox(sg4::Mailbox* mailbox, sg4::Host* sender) { used_mailboxes().push_back({mailbox, sender}); }

} // namespace pipesim::detail

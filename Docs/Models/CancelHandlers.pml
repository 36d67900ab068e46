/* A model of RunHandle's state word and its locked cancel-handler list (Sources/LazyPromise/Promise/RunHandle.swift,
 * Sources/LazyPromise/Internal/Run/CancelHandlers.swift), checked with spin:
 *
 *   spin -a CancelHandlers.pml && gcc -O2 -o pan pan.c && ./pan -m100000
 *
 * Three threads race on one run: the pending task registers two cancel handlers (`_onCancel` at generation 0),
 * its completion claims the run (`_claim`, which drops the handlers, then `_deliver`), and `cancel()`.
 * Checked: a run is delivered or cancelled, never both; each handler runs at most once, and only if the run was
 * cancelled; no handler of the completed task stays in the list; when every thread is done, each handler was run,
 * dropped, or ignored (registered after its task completed), or still sits in the list of a run nobody stopped
 * (released by the handle's deinit). The list is only touched under the lock, and handlers run outside it. */

#define NONE     0
#define LISTED   1
#define DROPPED  2
#define RAN      3
#define IGNORED  4

bool cancelled = false;
bool delivered = false;
byte generation = 0;

bool lock = false;          /* the handle's Mutex */
bool stopped = false;       /* _CancelHandlers.isStopped */
byte handler[2];            /* what became of each handler */
byte runs[2];               /* how many times each handler ran */
byte done = 0;

inline acquire() { atomic { !lock -> lock = true } }
inline release() { lock = false }

inline runHandler(h) {
  runs[h]++;
  handler[h] = RAN;
  assert(runs[h] == 1);
  assert(cancelled && !delivered)
}

proctype Task() {
  byte h = 0;
  bool runNow;
  do
  :: h < 2 ->
     runNow = false;
     acquire();
     if
     :: generation != 0 -> handler[h] = IGNORED       /* that task has completed */
     :: generation == 0 && stopped -> runNow = true
     :: generation == 0 && !stopped -> handler[h] = LISTED
     fi;
     release();
     if
     :: runNow -> runHandler(h)
     :: else -> skip
     fi;
     h++
  :: else -> break
  od;
  done++
}

proctype Completion() {
  bool claimed = false;
  byte h;
  /* _claim(0): compare-and-swap of the state word */
  atomic {
    if
    :: !cancelled && generation == 0 -> generation = 1; claimed = true
    :: else -> skip
    fi
  }
  if
  :: claimed ->
     /* _dropHandlers */
     acquire();
     h = 0;
     do
     :: h < 2 -> if :: handler[h] == LISTED -> handler[h] = DROPPED :: else -> skip fi; h++
     :: else -> break
     od;
     release();
     /* _deliver */
     atomic { if :: !cancelled && !delivered -> delivered = true :: else -> skip fi }
  :: else -> skip
  fi;
  done++
}

proctype Cancel() {
  bool won = false;
  bool taken[2];
  byte h;
  atomic { if :: !cancelled && !delivered -> cancelled = true; won = true :: else -> skip fi }
  if
  :: won ->
     acquire();
     stopped = true;
     h = 0;
     do
     :: h < 2 -> taken[h] = (handler[h] == LISTED); if :: taken[h] -> handler[h] = NONE :: else -> skip fi; h++
     :: else -> break
     od;
     release();
     h = 0;
     do
     :: h < 2 -> if :: taken[h] -> runHandler(h) :: else -> skip fi; h++
     :: else -> break
     od
  :: else -> skip
  fi;
  done++
}

init {
  atomic { run Task(); run Completion(); run Cancel() }
  (done == 3) ->
  assert(!(cancelled && delivered));
  assert(generation == 0 || (handler[0] != LISTED && handler[1] != LISTED));
  assert(runs[0] <= 1 && runs[1] <= 1);
  assert(handler[0] != NONE && handler[1] != NONE);
  assert(!delivered || (runs[0] == 0 && runs[1] == 0))
}

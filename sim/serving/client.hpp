#pragma once
// A benchmark client that caps the requests in flight: `vllm bench serve --max-concurrency C`.
//
// vLLM's client (vllm/benchmarks/serve.py, benchmark()) creates request i's task at its send time
// t_i of the rate process (get_request; every t_i = 0 without a rate) and the task waits on an
// asyncio.Semaphore(C) before it sends; the slot returns when the response is complete. Waiters
// are served in order, so with request i finishing at f_i
//   send_i = max(t_i, the time a slot is free),   sends in request order,
// and a slot is free again at f_i + think_time (genai-perf's and closed-loop clients' pause between
// a response and the next request on that connection; vLLM has none, think_time 0). Hence:
//   C = 1:    send_{i+1} = max(t_{i+1}, f_i + think_time): back-to-back requests;
//   C >= N:   send_i = t_i: the open-loop arrival process (a burst at time 0 without a rate).
// The client sets each request's arrived_at to its send time, so TTFT and E2E are measured from the
// send, as vLLM measures them (its queue time before the semaphore is reported apart).

#include <cstddef>
#include <functional>
#include <vector>

#include "sim/core/simulator.hpp"
#include "sim/core/time.hpp"
#include "sim/serving/request_state.hpp"
#include "sim/serving/serving_config.hpp"

namespace lynxsim::serving {

class Client {
public:
  using Send = std::function<void(RequestState&)>;
  // Throws std::invalid_argument for a concurrency below 1 or a negative think time.
  Client(Simulator& sim, const ClientSpec& spec, Send send);

  // `order`: the requests in send order, each metrics.arrived_at its ready time t_i
  // (non-decreasing); they must outlive the run.
  void start(std::vector<RequestState*> order);
  // A request the client sent has finished (its last token at now).
  void finished();

private:
  void pump();
  void wake_at(Time at);
  void free_slot();

  Simulator& sim_;
  ClientSpec spec_;
  Send send_;
  std::vector<RequestState*> order_;
  std::size_t next_ = 0;
  int free_slots_ = 0;
  bool timer_pending_ = false;
};

}  // namespace lynxsim::serving

#pragma once
// `lynxsim bench serving`: the speed of the serving simulator on a realistic workload.
//
// First the full Mooncake conversation hour (scenarios/mooncake-hour-h100-8p8d.json: 12,031
// requests, 8 prefill and 8 decode H100 instances of Llama-3.1-8B on a 400 Gb/s leaf-spine), once
// per quickstart method (bf16, int8, int4, lynx): per method and in total, the wall time, the
// process CPU time (lower than the wall time when other programs share the cores), the events
// executed per wall second and the simulated seconds per wall second.
// Then the same cluster and methods on longer traces, by default 10k, 100k and 1M requests: the
// Mooncake hour repeated back to back (copy k arrives k periods later, a period being the hour's
// span plus one mean inter-arrival gap) and cut at the size. Per size: the wall and CPU time of all
// methods, requests per wall second (requests x methods / wall time), wall and CPU microseconds per
// request and method (flat when the cost per request does not grow with the trace; on shared cores
// the CPU figure is the steadier), and the peak resident memory of the process (getrusage; sizes
// run in increasing order, so each size's peak is the largest so far, which the growth of memory
// with the trace makes its own).
// Accuracy is not measured (it would time sim/accuracy, not the simulator): speculative methods run
// with a fixed acceptance of 0.8, so the figures depend only on the simulator and the machine.

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/app/data_paths.hpp"

namespace lynxsim::app {

struct ServingBenchOptions {
  std::vector<std::int64_t> sizes{10'000, 100'000, 1'000'000};  // requests per scaling point
  // The longer traces sent by a capped client (client.hpp): each request ready at its trace
  // arrival, at most this many in flight (vllm bench serve --max-concurrency C over a rate). A cap
  // above the trace's peak concurrency runs the open-loop simulation with the client's bookkeeping
  // added; a lower one throttles it.
  std::optional<int> closed_loop;
};

int cmd_bench_serving(const DataPaths& data, const ServingBenchOptions& options);

}  // namespace lynxsim::app

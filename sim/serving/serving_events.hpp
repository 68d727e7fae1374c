#pragma once
// Events the serving model publishes on the Simulator's observer bus (for traces and metrics).
// Times are simulator timestamps; `request` is the request id; `instance` names the GPU instance.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace lynxsim::serving {

struct PrefillLayerDone {
  std::uint64_t request;
  int layer;
  Time started_at;
  Time finished_at;
};

// A prefill pass of instance `instance` (its layers, encode kernels and LM head) over `requests`.
struct PrefillPassDone {
  int instance;
  std::vector<std::uint64_t> requests;
  int tokens;  // new tokens prefilled in the pass
  Time started_at;
  Time finished_at;
};

struct KernelRan {
  std::uint64_t request;
  std::string instance;
  std::string kind;
  Time started_at;
  Time finished_at;
};

struct DecodeStepDone {
  int batch_size;
  int verifying;
  Time started_at;
  Time finished_at;
  int instance;
  std::vector<std::uint64_t> requests;  // the batch, in batch order
};

// The router sent a request to prefill instance `prefill` (-1: none, aggregated) and decode
// instance `decode`.
struct RequestRouted {
  std::uint64_t request;
  int prefill;
  int decode;
  Time at;
};

// Requests waiting at an instance changed: queued prompts of a prefill instance, or requests ready
// to decode that have not joined the batch of a decode instance.
struct QueueChanged {
  bool decode;
  int instance;
  int waiting;
  Time at;
};

struct VerificationDone {
  std::uint64_t request;
  int drafted;
  int accepted;
  Time at;
};

// Reserved KV bytes of one data-parallel attention rank of a decode instance changed (a request
// joined or finished; rank_memory.hpp).
struct DecodeMemoryChanged {
  int instance;
  int rank;                     // 0 without data-parallel attention
  std::int64_t used_bytes;      // weights + reserved KV, per GPU of the rank
  std::int64_t capacity_bytes;  // hbm_capacity * usable_fraction, per GPU
  Time at;
};

// The KV admission of a decode instance changed (kv_admission.hpp): a transfer was admitted, its
// full KV arrived, or a request left the staging buffers.
struct KvAdmissionChanged {
  int instance;
  std::int64_t staged_bytes;  // in the instance's staging buffers
  int in_flight;              // admitted transfers whose full KV has not arrived
  int waiting;                // transfers waiting for admission
  Time at;
};

struct RequestDone {
  std::uint64_t request;
  Time at;
  Time first_token_at;   // the first (possibly speculative) output token
  Time first_commit_at;  // the first verified token
};

}  // namespace lynxsim::serving

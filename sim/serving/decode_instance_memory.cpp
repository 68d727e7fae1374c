// DecodeInstance's reservations and KV admission (decode_instance.hpp, kv_admission.hpp).

#include <fmt/format.h>
#include <stdexcept>

#include "sim/serving/decode_instance.hpp"

namespace lynxsim::serving {

std::int64_t DecodeInstance::reservation(const RequestState& request) const {
  const std::int64_t drafts = params_.speculative ? params_.max_draft_tokens : 0;
  const std::int64_t tokens = request.metrics.context_tokens + request.metrics.output_tokens + drafts;
  return layered_kv_ ? timing_.kv_bytes_per_rank(tokens).value : kv_per_token_ * tokens;
}

std::int64_t DecodeInstance::staging_bytes(const RequestState& request) const {
  return timing_.kv_bytes_per_rank(request.metrics.context_tokens).value * timing_.attention_tp();
}

void DecodeInstance::on_routed(RequestState& request) {
  ++routed_;
  expected_bytes_ += reservation(request);
  if (reservation(request) + timing_.weight_bytes_per_rank().value > memory_.capacity()) {
    throw std::runtime_error(fmt::format(
        "request {} ({} context + {} output tokens) needs more KV memory than decode instance {} "
        "has ({} bytes per rank usable)",
        request.metrics.id, request.metrics.context_tokens, request.metrics.output_tokens,
        params_.index, memory_.capacity()));
  }
  const std::int64_t staging = params_.admission.staging_capacity.value;
  if (!admission_.reserves() && staging > 0 && staging_bytes(request) > staging) {
    throw std::runtime_error(fmt::format(
        "request {} ({} context tokens) needs {} bytes of staging buffers, more than decode "
        "instance {} has ({} bytes)",
        request.metrics.id, request.metrics.context_tokens, staging_bytes(request), params_.index, staging));
  }
}

void DecodeInstance::transfer_admitted(RequestState& request) {
  if (admission_.reserves()) reserve_for(request);
  if (on_admitted_) on_admitted_(request);
}

void DecodeInstance::reserve_for(RequestState& request) {
  const int rank = memory_.rank_of(request.metrics.id);
  request.reserved_bytes = reservation(request);
  memory_.reserve(rank, request.reserved_bytes);
  expected_bytes_ -= request.reserved_bytes;
  publish_memory(rank);
}

void DecodeInstance::release_for(RequestState& request) {
  if (request.reserved_bytes == 0) return;
  const int rank = memory_.rank_of(request.metrics.id);
  memory_.release(rank, request.reserved_bytes);
  request.reserved_bytes = 0;
  publish_memory(rank);
}

}  // namespace lynxsim::serving

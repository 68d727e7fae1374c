#pragma once
// The KV sender of a transfer method (kv_sender.hpp): CacheGenTransfer for the cachegen family,
// PlaneTransfer for every other method.

#include <memory>

#include "sim/serving/kv_sender.hpp"

namespace lynxsim::serving {

std::unique_ptr<KvSender> make_kv_sender(Simulator& sim, net::Network& network, KvTransferParams params,
                                         KvSender::Callback on_ready, KvSender::Callback on_full);

}  // namespace lynxsim::serving

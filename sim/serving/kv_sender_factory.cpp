#include "sim/serving/kv_sender_factory.hpp"

#include "sim/serving/cachegen_transfer.hpp"
#include "sim/serving/plane_transfer.hpp"

namespace lynxsim::serving {

std::unique_ptr<KvSender> make_kv_sender(Simulator& sim, net::Network& network, KvTransferParams params,
                                         KvSender::Callback on_ready, KvSender::Callback on_full) {
  if (params.method->family == quant::MethodFamily::cachegen) {
    return std::make_unique<CacheGenTransfer>(sim, network, std::move(params), std::move(on_ready),
                                              std::move(on_full));
  }
  return std::make_unique<PlaneTransfer>(sim, network, std::move(params), std::move(on_ready), std::move(on_full));
}

}  // namespace lynxsim::serving

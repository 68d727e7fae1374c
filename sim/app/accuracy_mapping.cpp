#include "sim/app/accuracy_mapping.hpp"

namespace lynxsim::app {

accuracy::QuantMethodSpec accuracy_method_of(const serving::TransferMethod& method) {
  using serving::MethodFamily;
  accuracy::QuantMethodSpec spec;
  spec.name = method.name;
  spec.bits = method.bits;
  spec.group_size = method.group_size;
  spec.kivi_window = method.kivi_window;
  spec.kivi_group = method.kivi_group;
  spec.cachegen_level = method.cachegen_level;
  switch (method.family) {
    case MethodFamily::bf16: spec.family = accuracy::MethodFamily::bf16; break;
    case MethodFamily::int_n: spec.family = accuracy::MethodFamily::int_n; break;
    case MethodFamily::kivi: spec.family = accuracy::MethodFamily::kivi; break;
    case MethodFamily::cachegen: spec.family = accuracy::MethodFamily::cachegen; break;
    case MethodFamily::lynx:
      spec.family = method.anchor_scheme == serving::AnchorScheme::quantspec
                        ? accuracy::MethodFamily::lynx_quantspec
                        : accuracy::MethodFamily::lynx;
      spec.planes = method.planes;
      spec.anchor_planes = method.decode_after_planes;
      break;
  }
  spec.validate();
  return spec;
}

}  // namespace lynxsim::app

#include "tools/ns3_crosscheck/packet_params.hpp"

#include <stdexcept>

namespace lynxsim::ns3check {

std::string transport_name(Transport t) {
  switch (t) {
    case Transport::Dctcp:
      return "dctcp";
    case Transport::NewReno:
      return "newreno";
    case Transport::Udp:
      return "udp";
  }
  return "?";
}

Transport transport_by_name(const std::string& name) {
  if (name == "dctcp") return Transport::Dctcp;
  if (name == "newreno") return Transport::NewReno;
  if (name == "udp") return Transport::Udp;
  throw std::invalid_argument("unknown transport \"" + name + "\" (dctcp, newreno or udp)");
}

}  // namespace lynxsim::ns3check

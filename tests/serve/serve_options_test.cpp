#include "ocrforge/serve/serve_options.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"

using namespace ocrforge;

TEST(ServeParams, LoopbackAddressesAreRecognised) {
  // "127.1" is how inet_aton (and so the listener) spells 127.0.0.1.
  for (const char* h : {"127.0.0.1", "127.1.2.3", "::1", "localhost", "127.1", "::ffff:127.0.0.1"})
    EXPECT_TRUE(is_loopback_host(h)) << h;
  for (const char* h : {"0.0.0.0", "::", "10.0.0.5", "192.168.1.2", "example.org", "", "128.1", "::ffff:10.0.0.1"})
    EXPECT_FALSE(is_loopback_host(h)) << h;
}

TEST(ServeParams, PublicAddressNeedsKeysOrInsecure) {
  ServeParams o;
  o.host = "0.0.0.0";
  try {
    check_serve_options(o);
    FAIL() << "a public address without keys must be refused";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--api_keys_file"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--insecure"), std::string::npos) << e.what();
  }
  o.insecure = true;
  EXPECT_NO_THROW(check_serve_options(o));
  o.insecure = false;
  o.keys = ApiKeys::from_list({"0123456789abcdef0123"});
  EXPECT_NO_THROW(check_serve_options(o));
}

TEST(ServeParams, HalfATlsPairIsRefused) {
  ServeParams o;
  o.tls_cert = "cert.pem";
  EXPECT_THROW(check_serve_options(o), UsageError);
}

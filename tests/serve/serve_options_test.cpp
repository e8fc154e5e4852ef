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

// --max_num_input_imgs (PaddleX's max_num_input_imgs, default 10) and
// --pdf_dpi (PaddleX renders PDF pages at zoom 2.0: 144 dpi).
TEST(ServeParams, DocumentFlagsHavePaddlexDefaultsAndRanges) {
  const auto parsed = [](const std::vector<std::string>& args) {
    FlagSet f("serve");
    declare_serve_document_flags(f);
    f.parse(args);
    ServeParams o;
    read_serve_document_flags(f, o);
    check_serve_options(o);
    return o;
  };
  const ServeParams d = parsed({});
  EXPECT_EQ(d.max_num_input_imgs, 10);
  EXPECT_EQ(d.pdf_dpi, 144);
  EXPECT_EQ(ServeParams{}.max_num_input_imgs, 10) << "the library default is the flag's";
  EXPECT_EQ(ServeParams{}.pdf_dpi, 144);
  const ServeParams set = parsed({"--max_num_input_imgs", "3", "--pdf_dpi", "300"});
  EXPECT_EQ(set.max_num_input_imgs, 3);
  EXPECT_EQ(set.pdf_dpi, 300);
  EXPECT_EQ(parsed({"--max_num_input_imgs", "0"}).max_num_input_imgs, 0) << "0: every page";
  EXPECT_EQ(parsed({"--pdf_dpi", "0"}).pdf_dpi, 0) << "0: each scan's own resolution";
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--max_num_input_imgs", "-1"}, {"--max_num_input_imgs", "x"}, {"--pdf_dpi", "5"},
        {"--pdf_dpi", "5000"}}) {
    try {
      parsed(bad);
      ADD_FAILURE() << bad[0] << " " << bad[1] << " was taken";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(bad[0]), std::string::npos) << e.what();
    }
  }
  ServeParams o;
  o.max_num_input_imgs = -2;
  EXPECT_THROW(check_serve_options(o), UsageError);
}

#include "scenario/json_document.hpp"

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include <crowd/limits.hpp>
#include <crowd/scenario_spec.hpp>

#include "scenario/scenario_paths.hpp"

namespace crowd::scenario_detail {
namespace {

using nlohmann::json;

// Reads the document as a stream of events (nlohmann's SAX interface) and stops at the first
// key an object repeats. Each open container keeps where its current child sits (an array's
// index, an object's key), which gives the JSON pointer of the object at fault. A separate pass
// before the document is built: the library's parser callback, the other way to see keys, scans
// the enclosing array after every object it closes, which is quadratic in the agent count.
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(const std::string& source) : source_(source) {}

  bool null() { return finishValue(); }
  bool boolean(bool /*value*/) { return finishValue(); }
  bool number_integer(json::number_integer_t /*value*/) { return finishValue(); }
  bool number_unsigned(json::number_unsigned_t /*value*/) { return finishValue(); }
  bool number_float(json::number_float_t /*value*/, const json::string_t& /*text*/) { return finishValue(); }
  bool string(json::string_t& /*value*/) { return finishValue(); }
  bool binary(json::binary_t& /*value*/) { return finishValue(); }
  bool start_object(std::size_t /*elements*/) { return open(false); }
  bool start_array(std::size_t /*elements*/) { return open(true); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& key) {
    Container& object = open_[depth_ - 1];
    if (!object.keys.insert(key).second) failAt(source_, pointer(), "duplicate key '" + key + "'");
    object.key = key;
    return true;
  }

  // Malformed text: stop here; building the document reports it with its position.
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/,
                   const nlohmann::detail::exception& /*error*/) {
    return false;
  }

 private:
  struct Container {
    bool isArray = false;
    std::size_t index = 0;  // Of the array element being read.
    std::string key;        // Of the object member being read.
    std::unordered_set<std::string> keys;
  };

  // Containers are reused as the reader goes up and down, so their key sets keep their tables.
  bool open(bool isArray) {
    if (depth_ == open_.size()) open_.emplace_back();
    Container& container = open_[depth_++];
    container.isArray = isArray;
    container.index = 0;
    container.keys.clear();
    return true;
  }

  bool close() {
    --depth_;
    return finishValue();
  }

  // A value ended; in an array, the next one has the next index.
  bool finishValue() {
    if (depth_ > 0 && open_[depth_ - 1].isArray) ++open_[depth_ - 1].index;
    return true;
  }

  // The pointer of the innermost open container.
  std::string pointer() const {
    std::string path;
    for (std::size_t d = 0; d + 1 < depth_; ++d) {
      path = open_[d].isArray ? childPath(path, open_[d].index) : childPath(path, open_[d].key);
    }
    return path;
  }

  const std::string& source_;
  std::vector<Container> open_;
  std::size_t depth_ = 0;
};

// "[json.exception.parse_error.101] parse error at line 1, column 7: syntax error while parsing
// value - invalid literal; ..." -> "parsing value - invalid literal; ... (line 1, column 7)".
std::string syntaxDetail(const std::string& what) {
  std::string detail = what;
  if (const auto bracket = detail.find("] "); bracket != std::string::npos) {
    detail.erase(0, bracket + 2);
  }
  std::string where;
  if (detail.rfind("parse error at ", 0) == 0) {
    const auto colon = detail.find(": ");
    if (colon != std::string::npos) {
      where = detail.substr(std::string_view("parse error at ").size(),
                            colon - std::string_view("parse error at ").size());
      detail.erase(0, colon + 2);
    }
  }
  if (detail.rfind("syntax error while ", 0) == 0) {
    detail.erase(0, std::strlen("syntax error while "));
  }
  return where.empty() ? detail : detail + " (" + where + ")";
}

}  // namespace

json parseJsonDocument(std::string_view text, const std::string& source) {
  DuplicateKeyCheck duplicates(source);
  json::sax_parse(text.begin(), text.end(), &duplicates);
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& error) {
    throw ScenarioError(source + ": syntax error at byte " + std::to_string(error.byte) + ": " +
                        syntaxDetail(error.what()));
  } catch (const json::out_of_range& error) {
    // nlohmann refuses numbers such as 1e999 that overflow a double ("number overflow parsing
    // '1e999'") without a position, so look for the number's text.
    const std::string what = error.what();
    const auto open = what.find('\'');
    const auto close = what.rfind('\'');
    if (open != std::string::npos && close > open) {
      const std::string token = what.substr(open + 1, close - open - 1);
      const auto at = text.find(token);
      if (at != std::string_view::npos) {
        throw ScenarioError(source + ": syntax error at byte " + std::to_string(at + 1) + ": number " +
                            token + " is too large (numbers must be finite)");
      }
    }
    throw ScenarioError(source + ": " + syntaxDetail(what));
  } catch (const json::exception& error) {
    throw ScenarioError(source + ": cannot read JSON: " + syntaxDetail(error.what()));
  }
}

std::string readScenarioText(const std::string& path) {
  errno = 0;
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw ScenarioError(path + ": cannot open: " + std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
    // A NUL is refused at once: binary files and devices (/dev/zero) end here, not in memory.
    if (const void* nul = std::memchr(buffer, '\0', got); nul != nullptr) {
      const std::size_t at = text.size() + static_cast<std::size_t>(static_cast<const char*>(nul) - buffer);
      throw ScenarioError(path + ": byte " + std::to_string(at + 1) +
                          " is a NUL character; a scenario file is JSON text");
    }
    text.append(buffer, got);
    if (text.size() > limits::kMaxScenarioFileBytes) {
      throw ScenarioError(
          path + ": larger than the " + std::to_string(limits::kMaxScenarioFileBytes >> 30) +
          " GiB a scenario file may be (the file size limit); describe large crowds with groups");
    }
  }
  // Reading a directory, for one, opens fine and fails here.
  if (std::ferror(file.get())) throw ScenarioError(path + ": cannot read: " + std::strerror(errno));
  return text;
}

}  // namespace crowd::scenario_detail

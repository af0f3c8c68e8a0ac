// An ensemble's journal (journal.hpp).
#include "ensemble/journal.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

namespace crowd::cli {
namespace {

std::runtime_error writeError(const std::string& path, const char* what) {
  return std::runtime_error("cannot " + std::string(what) + " the ensemble's journal " + path + ": " +
                            std::strerror(errno));
}

// The keys whose values differ between two argument objects, for the refusal.
std::string differences(const nlohmann::json& had, const nlohmann::json& now) {
  std::string keys;
  for (const auto& [key, value] : now.items()) {
    if (!had.contains(key) || had[key] != value) keys += (keys.empty() ? "" : ", ") + key;
  }
  for (const auto& [key, value] : had.items()) {
    if (!now.contains(key)) keys += (keys.empty() ? "" : ", ") + key;
  }
  return keys;
}

// The lines of an existing journal: its arguments (null for an empty file) and its runs.
nlohmann::json readJournal(const std::string& path, std::vector<RunRecord>& records, std::size_t runs) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return nlohmann::json();
  const nlohmann::json header = nlohmann::json::parse(line, nullptr, false);
  if (header.is_discarded() || !header.is_object() || !header.contains("ensemble")) {
    throw std::invalid_argument(path + " is not an ensemble's journal; move it away or name another --out");
  }
  std::set<std::size_t> seen;
  while (std::getline(in, line)) {
    // Only the last line can be cut off (the writer stopped mid-line); it is run again.
    if (in.eof()) break;
    RunRecord record;
    try {
      record = fromJournalLine(line);
    } catch (const nlohmann::json::exception&) {
      throw std::invalid_argument(path + " holds a line that is no run of an ensemble; move it away");
    }
    if (record.index >= runs || !seen.insert(record.index).second) {
      throw std::invalid_argument(path + " holds run " + std::to_string(record.index) +
                                  " twice or past the ensemble's runs; move it away");
    }
    records.push_back(std::move(record));
  }
  return header["ensemble"];
}

}  // namespace

std::string journalPath(const std::string& tablePath) {
  return tablePath + ".journal";
}

Journal::Journal(std::string path, const nlohmann::json& arguments, std::size_t runs)
    : path_(std::move(path)) {
  std::error_code error;
  if (std::filesystem::exists(path_, error)) {
    const nlohmann::json had = readJournal(path_, resumed_, runs);
    if (!had.is_null() && had != arguments) {
      throw std::invalid_argument(
          path_ + " is the journal of another ensemble (its " + differences(had, arguments) +
          " differ); run that one again to finish it, or remove the journal to start anew");
    }
  }
  // The kept runs into a fresh file, renamed over the old one: a line cut off mid-write is gone,
  // and a stop while rewriting leaves the old journal whole.
  const std::string fresh = path_ + ".new";
  std::FILE* file = std::fopen(fresh.c_str(), "w");
  if (file == nullptr) throw writeError(fresh, "create");
  std::string text = nlohmann::json{{"ensemble", arguments}}.dump() + "\n";
  for (const RunRecord& record : resumed_) text += toJournalLine(record) + "\n";
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !written || std::rename(fresh.c_str(), path_.c_str()) != 0) {
    std::remove(fresh.c_str());
    throw writeError(path_, "write");
  }
  file_ = std::fopen(path_.c_str(), "a");
  if (file_ == nullptr) throw writeError(path_, "append to");
}

Journal::~Journal() {
  if (file_ != nullptr) std::fclose(file_);
}

void Journal::append(const RunRecord& record) {
  const std::string line = toJournalLine(record) + "\n";
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
    throw writeError(path_, "append to");
  }
}

void Journal::remove() {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
  std::remove(path_.c_str());
}

}  // namespace crowd::cli

// Bad-input errors as fields, and their one rendering.
#include "base/input_error.hpp"

#include <cassert>
#include <charconv>
#include <fmt/format.h>

namespace pipesim {

InputError::InputError(Fields fields) : std::runtime_error(format(fields)), f_(std::move(fields)), text_(format(f_)) {}

InputError InputError::make(Fields fields) { return InputError(std::move(fields)); }

InputError InputError::keyed(std::string key, std::string message)
{
  assert(!key.empty() && "a keyed InputError names its key");
  return make({{}, 0, std::move(key), std::nullopt, std::move(message)});
}

InputError InputError::keyed_value(std::string key, std::string value, std::string message)
{
  assert(!key.empty() && "a keyed InputError names its key");
  return make({{}, 0, std::move(key), std::move(value), std::move(message)});
}

InputError InputError::at(std::string file, int line, std::string key, std::string message)
{
  return make({std::move(file), line, std::move(key), std::nullopt, std::move(message)});
}

InputError InputError::in_file(std::string file, int line, std::string message)
{
  assert(!file.empty() && "an InputError about a file names it");
  return make({std::move(file), line, {}, std::nullopt, std::move(message)});
}

InputError InputError::option(std::string option, std::string message)
{
  return make({std::string(command_line_place), 0, std::move(option), std::nullopt, std::move(message)});
}

void InputError::locate(std::string file, int line)
{
  f_.file = std::move(file);
  f_.line = line;
  text_   = format(f_);
}

void InputError::reset(Fields fields)
{
  f_    = std::move(fields);
  text_ = format(f_);
}

void InputError::prefix_message(const std::string& context)
{
  f_.message = context + f_.message;
  text_      = format(f_);
}

std::string InputError::format(const Fields& f)
{
  std::string out;
  if (f.file == command_line_place) { // "--steps 0: ..."; an option without its value: "--trace: ..."
    out = f.key.empty() ? std::string(command_line_place) : f.key;
    if (f.value) out += (out.ends_with('=') ? "" : " ") + *f.value; // "PIPESIM_TIME_LIMIT=-3" as typed
    return out + ": " + f.message;
  }
  if (!f.file.empty()) out = f.line > 0 ? fmt::format("{}:{}: ", f.file, f.line) : f.file + ": ";
  if (!f.key.empty()) out += fmt::format("key '{}': ", f.key);
  if (f.value) out += fmt::format("value '{}': ", *f.value);
  return out + f.message;
}

// One field after the other, each as "<length>:<bytes>", the value preceded by a flag ("1" present, "0" absent).
std::string InputError::serialize() const
{
  auto field = [](const std::string& s) { return fmt::format("{}:{}", s.size(), s); };
  return field(f_.file) + field(std::to_string(f_.line)) + field(f_.key) + field(f_.value ? "1" : "0") +
         field(f_.value.value_or("")) + field(f_.message);
}

InputError InputError::deserialize(std::string_view text)
{
  auto next = [&text]() {
    std::size_t length = 0;
    auto colon         = text.find(':');
    if (colon == std::string_view::npos) throw std::invalid_argument("not a serialized InputError");
    auto [end, ec] = std::from_chars(text.data(), text.data() + colon, length);
    if (ec != std::errc() || end != text.data() + colon || text.size() - colon - 1 < length)
      throw std::invalid_argument("not a serialized InputError");
    std::string field(text.substr(colon + 1, length));
    text.remove_prefix(colon + 1 + length);
    return field;
  };
  Fields f;
  f.file            = next();
  f.line            = std::stoi(next());
  f.key             = next();
  bool has_value    = next() == "1";
  std::string value = next();
  if (has_value) f.value = std::move(value);
  f.message = next();
  if (!text.empty()) throw std::invalid_argument("not a serialized InputError");
  return make(std::move(f));
}

} // namespace pipesim

// Writes the recorded answers the photo-albums example runs on offline:
// Resources/users.json (10 users), Resources/albums.json (100 albums), Resources/photos.json (5,000 photos).
//
//   cd Sources/PhotoAlbums && swift make-recordings.swift
//
// The shape is JSONPlaceholder's (https://jsonplaceholder.typicode.com): the same fields, in the same order, with
// 10 albums per user and 50 photos per album. The users' names, usernames and emails are the service's
// well-known placeholder people; every other value (addresses, titles, colours) comes from a fixed-seed generator,
// so running the script again writes the same bytes. This file is excluded from the PhotoAlbums target.

import Foundation

/// A fixed-seed generator (SplitMix64): the same seed gives the same data on every machine.
struct Generator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

let words = """
  accusamus beatae ad facilis cum similique qui sunt reprehenderit est deserunt velit ipsam officia porro iure \
  quia iusto qui ipsa ut modi culpa odio esse inventore et voluptate fugit nam tempora vel dolorem quo laborum \
  natus nihil autem quibusdam omnis sint magnam rerum quasi architecto eius nostrum non possimus dolores neque \
  molestiae laboriosam praesentium aut voluptas sed perspiciatis delectus provident voluptatem tenetur fuga harum
  """.split(separator: " ").map(String.init)

var random = Generator(state: 2024)

func title(_ count: ClosedRange<Int>) -> String {
  (0..<(count.lowerBound + random.below(count.count))).map { _ in random.pick(words) }.joined(separator: " ")
}

func quoted(_ text: String) -> String { "\"\(text)\"" }

func object(_ fields: [(String, String)], indent: String) -> String {
  let inner = indent + "  "
  let lines = fields.map { "\(inner)\(quoted($0.0)): \($0.1)" }
  return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
}

let people: [(name: String, username: String, email: String)] = [
  ("Leanne Graham", "Bret", "Sincere@april.biz"),
  ("Ervin Howell", "Antonette", "Shanna@melissa.tv"),
  ("Clementine Bauch", "Samantha", "Nathan@yesenia.net"),
  ("Patricia Lebsack", "Karianne", "Julianne.OConner@kory.org"),
  ("Chelsey Dietrich", "Kamren", "Lucio_Hettinger@annie.ca"),
  ("Mrs. Dennis Schulist", "Leopoldo_Corkery", "Karley_Dach@jasper.info"),
  ("Kurtis Weissnat", "Elwyn.Skiles", "Telly.Hoeger@billy.biz"),
  ("Nicholas Runolfsdottir V", "Maxime_Nienow", "Sherwood@rosamond.me"),
  ("Glenna Reichert", "Delphine", "Chaim_McDermott@dana.io"),
  ("Clementina DuBuque", "Moriah.Stanton", "Rey.Padberg@karina.biz"),
]

let users = people.enumerated().map { offset, person in
  let id = offset + 1
  let geo = object(
    [
      ("lat", quoted(String(format: "%.4f", Double(random.below(180_000)) / 1_000 - 90))),
      ("lng", quoted(String(format: "%.4f", Double(random.below(360_000)) / 1_000 - 180))),
    ], indent: "      ")
  let address = object(
    [
      ("street", quoted(title(2...2).capitalized + " Street")),
      ("suite", quoted("Apt. \(100 + random.below(900))")),
      ("city", quoted(random.pick(words).capitalized + random.pick(["ville", "borough", "side", "haven"]))),
      ("zipcode", quoted(String(format: "%05d-%04d", random.below(100_000), random.below(10_000)))),
      ("geo", geo),
    ], indent: "    ")
  let company = object(
    [
      ("name", quoted(random.pick(words).capitalized + random.pick([" Group", " LLC", "-Crona", " and Sons"]))),
      ("catchPhrase", quoted(title(3...4).capitalized)),
      ("bs", quoted(title(3...3))),
    ], indent: "    ")
  return object(
    [
      ("id", "\(id)"), ("name", quoted(person.name)), ("username", quoted(person.username)),
      ("email", quoted(person.email)), ("address", address),
      (
        "phone",
        quoted(String(format: "1-%03d-%03d-%04d", random.below(1000), random.below(1000), random.below(10_000)))
      ),
      ("website", quoted(person.username.lowercased().filter(\.isLetter) + ".org")), ("company", company),
    ], indent: "  ")
}

let albums = (1...100).map { id in
  object([("userId", "\((id - 1) / 10 + 1)"), ("id", "\(id)"), ("title", quoted(title(2...6)))], indent: "  ")
}

// One photo per line, without spaces, keeps the 5,000 photos small (about 700 KB) in the API's field order.
let photos = (1...5_000).map { id -> String in
  let colour = String(format: "%06x", random.below(0x100_0000))
  return "  {\"albumId\":\((id - 1) / 50 + 1),\"id\":\(id),\"title\":\(quoted(title(2...4))),"
    + "\"url\":\"https://via.placeholder.com/600/\(colour)\","
    + "\"thumbnailUrl\":\"https://via.placeholder.com/150/\(colour)\"}"
}

func write(_ items: [String], to name: String) throws {
  let text =
    "[\n  " + items.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }.joined(separator: ",\n  ") + "\n]\n"
  try text.write(toFile: "Resources/\(name).json", atomically: true, encoding: .utf8)
}

try write(users, to: "users")
try write(albums, to: "albums")
try write(photos, to: "photos")
print("wrote Resources/users.json, albums.json, photos.json")

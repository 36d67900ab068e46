import Testing

@testable import PhotoAlbums

@Suite("photo-albums model")
struct ModelTests {
  let users = [
    User(id: 1, name: "Ada", username: "ada", email: "ada@example.org"),
    User(id: 2, name: "Brian", username: "bk", email: "bk@example.org"),
  ]
  let albums = [
    Album(userId: 2, id: 10, title: "ten"), Album(userId: 1, id: 11, title: "eleven"),
    Album(userId: 2, id: 12, title: "twelve"), Album(userId: 9, id: 13, title: "nobody's"),
  ]
  let photos = [
    Photo(albumId: 10, id: 1, title: "a", url: "u", thumbnailUrl: "t"),
    Photo(albumId: 12, id: 2, title: "b", url: "u", thumbnailUrl: "t"),
    Photo(albumId: 10, id: 3, title: "c", url: "u", thumbnailUrl: "t"),
    Photo(albumId: 99, id: 4, title: "orphan", url: "u", thumbnailUrl: "t"),
  ]

  @Test("merge gives each user their albums and each album its photos, in order; orphans are dropped")
  func mergeNestsInOrder() {
    let merged = merge(users, albums, photos)
    #expect(merged.map(\.user.id) == [1, 2])
    #expect(merged[0].albums.map(\.album.id) == [11])
    #expect(merged[0].albums[0].photos.isEmpty)
    #expect(merged[1].albums.map(\.album.id) == [10, 12])
    #expect(merged[1].albums[0].photos.map(\.id) == [1, 3])
    #expect(merged[1].albums[1].photos.map(\.id) == [2])
  }

  @Test("the summary counts what was merged: totals, then one line per user")
  func summaryCountsTheMerge() {
    #expect(
      summary(merge(users, albums, photos)) == [
        "2 users, 3 albums, 3 photos",
        "Ada (ada): 1 albums, 0 photos",
        "Brian (bk): 2 albums, 3 photos",
      ])
    #expect(summary([]) == ["0 users, 0 albums, 0 photos"])
  }

  @Test("the recordings have JSONPlaceholder's shape: 10 users, 100 albums, 5,000 photos")
  func recordingsHaveTheRealShape() throws {
    let users = try decodeUsers(recording(of: .users).get()).get()
    let albums = try decodeAlbums(recording(of: .albums).get()).get()
    let photos = try decodePhotos(recording(of: .photos).get()).get()
    #expect(users.count == 10 && albums.count == 100 && photos.count == 5_000)
    #expect(users.first?.name == "Leanne Graham")
    #expect(albums.allSatisfy { (1...10).contains($0.userId) })
    #expect(photos.allSatisfy { $0.url.hasPrefix("https://via.placeholder.com/600/") })
  }
}

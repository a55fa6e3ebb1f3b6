Pod::Spec.new do |s|
  s.name = "Library"
  s.version = "0.3.0"
  s.summary = "The reader's saved articles."

  s.description = <<-DESC
Library keeps the articles a reader bookmarks and lists them.
                  DESC

  s.homepage = "https://example.com/newsapp"
  s.license = { :type => "MIT", :file => "LICENSE" }
  s.author = { "NewsApp" => "mobile@example.com" }
  s.source = { :git => "https://example.com/newsapp/library.git", :tag => s.version.to_s }

  s.ios.deployment_target = "13.0"
  s.swift_versions = ["5.7", "5.9"]

  s.source_files = "Sources/**/*.swift"
  s.resources = "Sources/**/*.{xib,storyboard,strings,xcassets}"

  s.dependency "LibraryIO"
  s.dependency "FeedIO"

  s.dependency "Boardy/ModulePlugin"
  s.dependency "SiFUtilities"
end

Pod::Spec.new do |s|
  s.name = "Feed"
  s.version = "0.3.0"
  s.summary = "The home feed, the article reader and the comments."

  s.description = <<-DESC
Feed shows the latest stories, opens them in the reader and lets readers comment.
                  DESC

  s.homepage = "https://example.com/newsapp"
  s.license = { :type => "MIT", :file => "LICENSE" }
  s.author = { "NewsApp" => "mobile@example.com" }
  s.source = { :git => "https://example.com/newsapp/feed.git", :tag => s.version.to_s }

  s.ios.deployment_target = "13.0"
  s.swift_versions = ["5.7", "5.9"]

  s.source_files = "Sources/**/*.swift"
  s.resources = "Sources/**/*.{xib,storyboard,strings,xcassets}"

  s.dependency "FeedIO"
  s.dependency "AccountIO"
  s.dependency "LibraryIO"

  s.dependency "Boardy/ModulePlugin"
  s.dependency "SiFUtilities"

  s.test_spec "Tests" do |test_spec|
    test_spec.source_files = "Tests/**/*.swift"
    test_spec.dependency "Boardy"
  end
end

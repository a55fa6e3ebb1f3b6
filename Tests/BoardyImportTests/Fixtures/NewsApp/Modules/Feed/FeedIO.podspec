Pod::Spec.new do |s|
  s.name = "FeedIO"
  s.version = "0.3.0"
  s.summary = "The public interface of Feed: ids, inputs and outputs."

  s.description = <<-DESC
Other modules import FeedIO to open the feed, the reader or the comments without depending on Feed.
                  DESC

  s.homepage = "https://example.com/newsapp"
  s.license = { :type => "MIT", :file => "LICENSE" }
  s.author = { "NewsApp" => "mobile@example.com" }
  s.source = { :git => "https://example.com/newsapp/feed.git", :tag => s.version.to_s }

  s.ios.deployment_target = "13.0"
  s.swift_versions = ["5.7", "5.9"]

  s.source_files = "IO/**/*.swift"

  s.dependency "Boardy"
end

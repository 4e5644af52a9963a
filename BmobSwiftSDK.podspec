# The Swift SDK of Bmob Swift for CocoaPods, with the subspecs Bmob's Swift SDK lists (Core, Data, User, File, Cloud)
# and the realtime clients. Each subspec is one SwiftPM target of the SDK: `scripts/check-podspec.sh` fails when a
# subspec's files or dependencies differ from its target's, or when an SDK target has no subspec.
#
# CocoaPods compiles a pod's subspecs into one module, `BmobSwiftSDK`, where SwiftPM builds a module per target: apps
# write `import BmobSwiftSDK`, and `prepare_command` removes the imports of the SDK's own modules from the sources
# (they are all one module here). The Swift settings are Package.swift's: Swift 6 and its upcoming features, and a
# package name for the `package` declarations the modules share.
Pod::Spec.new do |s|
  s.name = 'BmobSwiftSDK'
  s.version = '1.1.0'
  s.summary = 'The Swift SDK of Bmob Swift: objects, queries, users, files, cloud functions and realtime.'
  s.description = <<-DESC
    A Swift SDK with async/await for Bmob's protocols, for Bmob's cloud or a self-hosted `bmob serve`:
    BmobObject and BmobQuery, BmobUser, BmobFile with resumable uploads, BmobCloud, BmobEvent realtime, and the
    BirdRealtime channels and OnebaseClient sync clients.
  DESC
  s.homepage = 'https://github.com/bmob/BmobSwiftSDK'
  s.license = { :type => 'MIT', :file => 'LICENSE' }
  s.authors = { 'the Bmob Swift authors' => 'https://github.com/bmob/BmobSwiftSDK' }
  s.source = { :git => 'https://github.com/bmob/BmobSwiftSDK.git', :tag => s.version.to_s }
  s.swift_versions = ['6.0']
  s.cocoapods_version = '>= 1.12'

  s.ios.deployment_target = '15.0'
  s.osx.deployment_target = '12.0'
  s.tvos.deployment_target = '15.0'
  s.watchos.deployment_target = '8.0'

  s.prepare_command = <<-CMD
    find Sources -name '*.swift' -exec sed -i.bak -E '/^[[:space:]]*(@_exported )?(public |package |internal )?import (BmobCrypto|BmobWire|BmobCore|BmobData|BmobUser|BmobFile|BmobCloud|BmobRealtime|BirdRealtime|OnebaseClient)$/d' {} +
    find Sources -name '*.swift.bak' -delete
  CMD
  s.pod_target_xcconfig = {
    'OTHER_SWIFT_FLAGS' => '-package-name BmobSwiftSDK -enable-upcoming-feature ExistentialAny ' \
      '-enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature InternalImportsByDefault ' \
      '-enable-upcoming-feature NonisolatedNonsendingByDefault',
  }

  s.default_subspecs = 'SDK'

  s.subspec 'Crypto' do |ss|
    ss.source_files = 'Sources/BmobCrypto/**/*.swift'
  end

  s.subspec 'Wire' do |ss|
    ss.source_files = 'Sources/BmobWire/**/*.swift'
    ss.dependency 'BmobSwiftSDK/Crypto'
  end

  s.subspec 'Core' do |ss|
    ss.source_files = 'Sources/BmobCore/**/*.swift'
    ss.dependency 'BmobSwiftSDK/Wire'
    ss.dependency 'BmobSwiftSDK/Crypto'
  end

  s.subspec 'Data' do |ss|
    ss.source_files = 'Sources/BmobData/**/*.swift'
    ss.dependency 'BmobSwiftSDK/Core'
    ss.dependency 'BmobSwiftSDK/Wire'
  end

  s.subspec 'User' do |ss|
    ss.source_files = 'Sources/BmobUser/**/*.swift'
    ss.dependency 'BmobSwiftSDK/Core'
    ss.dependency 'BmobSwiftSDK/Data'
    ss.dependency 'BmobSwiftSDK/Wire'
  end

  s.subspec 'File' do |ss|
    ss.source_files = 'Sources/BmobFile/**/*.swift'
    ss.dependency 'BmobSwiftSDK/Core'
    ss.dependency 'BmobSwiftSDK/Data'
    ss.dependency 'BmobSwiftSDK/Wire'
    ss.dependency 'BmobSwiftSDK/Crypto'
  end

  s.subspec 'Cloud' do |ss|
    ss.source_files = 'Sources/BmobCloud/**/*.swift'
    ss.dependency 'BmobSwiftSDK/Core'
    ss.dependency 'BmobSwiftSDK/Wire'
  end

  s.subspec 'Realtime' do |ss|
    ss.source_files = 'Sources/BmobRealtime/**/*.swift'
    ss.dependency 'BmobSwiftSDK/Core'
    ss.dependency 'BmobSwiftSDK/Wire'
    ss.dependency 'BmobSwiftSDK/Crypto'
  end

  s.subspec 'BirdRealtime' do |ss|
    ss.source_files = 'Sources/BirdRealtime/**/*.swift'
    ss.dependency 'BmobSwiftSDK/Realtime'
    ss.dependency 'BmobSwiftSDK/Wire'
  end

  s.subspec 'OnebaseClient' do |ss|
    ss.source_files = 'Sources/OnebaseClient/**/*.swift'
    ss.dependency 'BmobSwiftSDK/Wire'
    ss.dependency 'BmobSwiftSDK/Crypto'
    ss.dependency 'BmobSwiftSDK/Realtime'
  end

  s.subspec 'SDK' do |ss|
    ss.source_files = 'Sources/BmobSDK/**/*.swift'
    ss.dependency 'BmobSwiftSDK/Core'
    ss.dependency 'BmobSwiftSDK/Data'
    ss.dependency 'BmobSwiftSDK/User'
    ss.dependency 'BmobSwiftSDK/Realtime'
    ss.dependency 'BmobSwiftSDK/File'
    ss.dependency 'BmobSwiftSDK/Cloud'
  end
end

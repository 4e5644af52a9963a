// The umbrella module: `import BmobSDK` brings in every part of the SDK.
@_exported public import BmobCore
@_exported public import BmobData
@_exported public import BmobUser
@_exported public import BmobRealtime
@_exported public import BmobFile
@_exported public import BmobCloud

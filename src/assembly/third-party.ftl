<#-- doc/THIRD-PARTY.txt of a plugin archive (license-maven-plugin add-third-party): one entry per third-party jar in
     lib/, with each licence its pom declares. Left out, as src/assembly/connect-plugin.xml leaves them out of lib/:
     what every Connect worker has, and our own modules. -->
<#function shipped p>
  <#if p.groupId?matches("org\\.apache\\.kafka|com\\.fasterxml\\.jackson\\.core|org\\.slf4j|ch\\.qos\\.reload4j|io\\.cdcconnect")><#return false></#if>
  <#if p.artifactId?matches("zstd-jni|lz4-java|snappy-java|jackson-datatype-jsr310")><#return false></#if>
  <#return true>
</#function>
<#-- the licence text shipped in doc/licenses/ for an entry: by artifact where the text carries the component's own
     copyright (or is the component's own licence file), else the Apache License 2.0 when that is every licence its pom
     declares; none otherwise, which PluginArchiveTest / VerifyArchiveTest report -->
<#function licenceText p>
  <#if p.artifactId == "mysql-connector-j"><#return "GPL-2.0-with-Universal-FOSS-Exception-1.0-MySQL-Connector-J.txt"></#if>
  <#if p.artifactId == "mariadb-java-client"><#return "LGPL-2.1.txt"></#if>
  <#if p.groupId == "org.postgresql" && p.artifactId == "postgresql"><#return "BSD-2-Clause-PgJDBC.txt"></#if>
  <#if p.groupId == "org.antlr" && p.artifactId == "antlr4-runtime"><#return "BSD-3-Clause-ANTLR.txt"></#if>
  <#if p.groupId == "org.checkerframework" && p.artifactId == "checker-qual"><#return "MIT-Checker-Framework.txt"></#if>
  <#if p.licenses?size == 0><#return ""></#if>
  <#list p.licenses as l><#if !(l.name!"")?matches("(?i).*apache.*2.*")><#return ""></#if></#list>
  <#return "Apache-2.0.txt">
</#function>
<#assign entries = []/>
<#list dependencyMap as e><#if shipped(e.getKey())><#assign entries = entries + [e.getKey()]/></#if></#list>
This archive bundles these ${entries?size} third-party components in lib/, each under the licence(s) its Maven pom
declares (name and URL as the pom gives them); the text of each licence is in doc/licenses/.
<#list entries as p>

${p.groupId}:${p.artifactId}:${p.version}<#if p.name?? && !p.name?contains('Unnamed')> (${p.name})</#if>
<#if p.url??>  home: ${p.url}
</#if>
<#list p.licenses as l>
  licence: ${l.name!"(no name)"}<#if l.url??> - ${l.url}</#if>
</#list>
<#if licenceText(p) != "">
  licence text: doc/licenses/${licenceText(p)}
</#if>
</#list>
